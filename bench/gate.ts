/**
 * npm run bench:gate — the gate's local copy of the registered vehicles (docs/kiosk-sync.md) at 50,000
 * vehicles: the change feed pulled whole by a plain client (time, bytes, requests), pulled again unchanged
 * (bytes), and after 100 changes (bytes); then the real kiosk, built and run in Debian's Chromium (on-disk
 * profile), pulling the same feed into its IndexedDB: its first pull's time, the origin's storage usage
 * (`navigator.storage.estimate()`) before and after, the IndexedDB folder on disk, and the bytes of its pull
 * after a reload (unchanged). Targets: 50,000 vehicles within 50 MB of IndexedDB; an unchanged pull transfers
 * almost nothing (under 1 kB). Settings (env): BENCH_GATE_VEHICLES (50000), BENCH_GATE_BROWSER=0 skips Chromium.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { type BrowserContext, chromium } from 'playwright-core';
import { z } from 'zod';
import { VehicleChanges } from '../shared/src/schemas/vehicles';
import { type Executor, queryOne, queryRows } from '../server/src/db/query';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../test/support/browser';
import { buildToken } from '../test/support/factories';
import { type KioskWeb, kioskWebAt } from '../test/support/kioskBuild';
import { envNumber, printTable, runBench, startBenchApi, writeResults } from './harness';
import { raw, sql } from '../server/src/db/sql';

const VEHICLES = Math.round(envNumber('BENCH_GATE_VEHICLES', 50_000));
const BROWSER = process.env.BENCH_GATE_BROWSER !== '0';
const TARGET_MB = 50;
const UNCHANGED_TARGET_BYTES = 1_000;
const CHANGED = 100;
const MB = 1024 * 1024;

/** Three labels, then every vehicle in one statement: a tenth are staff, one in a hundred banned. */
async function seed(db: Executor, accountId: number): Promise<void> {
  const labels = await queryRows<{ id: number; name: string }>(
    db,
    sql`INSERT INTO vehicle_labels (account_id, name, blocks_entry, created_at, updated_at)
     VALUES (${accountId}, 'Banned', true, now(), now()), (${accountId}, 'Staff', false, now(), now()), (${accountId}, 'Contractor', false, now(), now())
     RETURNING id, name`,
  );
  const label = (name: string) => labels.find((row) => row.name === name)?.id;
  await queryOne(
    db,
    sql`INSERT INTO vehicles (account_id, license_plate, plate_norm, make, model, color, created_at, updated_at)
     SELECT ${accountId}, 'GT-' || lpad(g::text, 6, '0'), 'GT' || lpad(g::text, 6, '0'), (ARRAY['Volvo', 'Ford', 'Toyota', 'Skoda'])[1 + g % 4],
       'Model ' || (g % 20), (ARRAY['red', 'blue', 'white', 'black', 'silver'])[1 + g % 5], now(), now()
     FROM generate_series(1, ${VEHICLES}) AS g`,
  );
  await queryOne(
    db,
    sql`INSERT INTO vehicle_label_assignments (account_id, vehicle_id, label_id)
     SELECT account_id, id, CASE WHEN id % 100 = 0 THEN ${label('Banned')}::int ELSE ${label('Staff')}::int END FROM vehicles WHERE account_id = ${accountId} AND id % 10 = 0`,
  );
  for (const table of ['vehicles', 'vehicle_feed', 'vehicle_label_assignments'])
    await queryRows(db, sql`ANALYZE ${raw(table)}`);
}

interface Pull {
  ms: number;
  bytes: number;
  gzipBytes: number;
  requests: number;
  vehicles: number;
  cursor: string;
}

/** Pulls the feed from `cursor` until it has no more, as a kiosk does (one request at a time). */
async function pullFeed(baseUrl: string, token: string, cursor?: string): Promise<Pull> {
  const started = process.hrtime.bigint();
  const bodies: Buffer[] = [];
  let vehicles = 0;
  let next = cursor;
  for (;;) {
    const query = next === undefined ? '' : `?cursor=${encodeURIComponent(next)}`;
    const response = await fetch(`${baseUrl}/v1/profiles/vehicles/changes${query}`, {
      headers: { Authorization: `Bearer ${token}` },
    });
    const body = Buffer.from(await response.arrayBuffer());
    if (response.status !== 200) throw new Error(`feed answered ${response.status}: ${body.toString()}`);
    bodies.push(body);
    const page = VehicleChanges.parse(JSON.parse(body.toString('utf8')));
    vehicles += page.vehicles.length;
    next = page.nextCursor;
    if (!page.hasMore) break;
  }
  const ms = Number(process.hrtime.bigint() - started) / 1e6;
  const bytes = bodies.reduce((sum, body) => sum + body.length, 0);
  const gzipBytes = bodies.reduce((sum, body) => sum + gzipSync(body).length, 0);
  return { ms, bytes, gzipBytes, requests: bodies.length, vehicles, cursor: next ?? '' };
}

const Estimate = z.object({
  usage: z.number(),
  usageDetails: z.object({ indexedDB: z.number().optional() }).optional(),
});

interface BrowserFootprint {
  firstPullMs: number;
  usageBefore: number;
  usageAfter: number;
  indexedDbAfter: number | null;
  diskBytes: number;
  feedRequests: number;
  feedBytes: number;
  reloadPullBytes: number;
}

/** Rows in a store of the kiosk's own database, read in the page. */
const countIn = (context: BrowserContext, store: string) => {
  const page = context.pages()[0];
  if (!page) throw new Error('no page');
  return page.evaluate(
    (name) =>
      new Promise<number>((resolve, reject) => {
        const request = indexedDB.open('gatehouse-kiosk');
        request.onerror = () => reject(request.error ?? new Error('IndexedDB request failed'));
        request.onsuccess = () => {
          const db = request.result;
          if (!db.objectStoreNames.contains(name)) {
            db.close();
            resolve(0);
            return;
          }
          const count = db.transaction(name).objectStore(name).count();
          count.onsuccess = () => {
            db.close();
            resolve(count.result);
          };
          count.onerror = () => reject(count.error ?? new Error('IndexedDB request failed'));
        };
      }),
    store,
  );
};

async function waitFor(condition: () => Promise<boolean>, timeoutMs: number, what: string): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** The built kiosk in Chromium, on a profile on disk, paired with a gate token: what its copy costs there. */
async function measureInChromium(
  web: KioskWeb,
  baseUrl: string,
  token: string,
  siteId: number,
): Promise<BrowserFootprint> {
  const profile = await fs.mkdtemp(path.join(os.tmpdir(), 'gatehouse-bench-gate-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM_PATH,
    args: CHROMIUM_ARGS,
    viewport: { width: 1280, height: 800 },
    // What is measured is the vehicles' copy in IndexedDB: the service worker's copy of the app (Cache
    // Storage, about 1.5 MB) would land in the same storage estimate, at a moment of its own.
    serviceWorkers: 'block',
  });
  try {
    // The feed waits until the storage in use before the copy is read; each answer is counted on its way.
    let release = () => {};
    const released = new Promise<void>((resolve) => (release = resolve));
    let asked = false;
    const answered: number[] = [];
    await context.route('**/v1/profiles/vehicles/changes**', async (route) => {
      asked = true;
      await released;
      const response = await route.fetch();
      const body = await response.body();
      answered.push(body.length);
      await route.fulfill({ response, body });
    });
    const page = context.pages()[0] ?? (await context.newPage());
    const query = new URLSearchParams({ server: baseUrl, token, site: String(siteId), mode: 'gate' });
    await page.goto(`${web.url}?${query}`);
    await waitFor(() => Promise.resolve(asked), 60_000, 'the kiosk to ask for the vehicle feed');
    const estimate = async () => Estimate.parse(await page.evaluate(() => navigator.storage.estimate()));
    const before = await estimate();
    const started = Date.now();
    release();
    await waitFor(
      async () => (await countIn(context, 'knownVehicles')) >= VEHICLES,
      600_000,
      `${VEHICLES} vehicles in IndexedDB`,
    );
    const firstPullMs = Date.now() - started;
    const feedRequests = answered.length;
    const feedBytes = answered.reduce((sum, bytes) => sum + bytes, 0);
    const after = await estimate();
    // Reloaded, the kiosk pulls again from its stored cursor: nothing changed, so (almost) nothing comes.
    await page.reload();
    await waitFor(() => Promise.resolve(answered.length > feedRequests), 60_000, 'the pull after the reload');
    const reloadPullBytes = answered.slice(feedRequests).reduce((sum, bytes) => sum + bytes, 0);
    await context.close();
    const diskBytes = Number(
      execFileSync('du', ['-sb', path.join(profile, 'Default', 'IndexedDB')])
        .toString()
        .split('\t')[0],
    );
    return {
      firstPullMs,
      usageBefore: before.usage,
      usageAfter: after.usage,
      indexedDbAfter: after.usageDetails?.indexedDB ?? null,
      diskBytes,
      feedRequests,
      feedBytes,
      reloadPullBytes,
    };
  } finally {
    await context.close().catch(() => {});
    await fs.rm(profile, { recursive: true, force: true });
  }
}

const mb = (bytes: number) => (bytes / MB).toFixed(2);

async function main(): Promise<void> {
  const { database, server, world, stop } = await startBenchApi('gatehouse_bench_gate');
  const db = database.database;
  try {
    const seedStarted = Date.now();
    await seed(db, world.accountId);
    process.stdout.write(
      `Seeded ${VEHICLES} vehicles (a tenth labelled) in ${((Date.now() - seedStarted) / 1000).toFixed(1)} s\n\n`,
    );

    const full = await pullFeed(server.baseUrl, world.token);
    if (full.vehicles !== VEHICLES) throw new Error(`the full pull brought ${full.vehicles} vehicles, not ${VEHICLES}`);
    const unchanged = await pullFeed(server.baseUrl, world.token, full.cursor);
    await queryOne(
      db,
      sql`UPDATE vehicles SET color = 'green' WHERE account_id = ${world.accountId} AND id IN (
      SELECT id FROM vehicles WHERE account_id = ${world.accountId} ORDER BY id LIMIT ${CHANGED})`,
    );
    const changed = await pullFeed(server.baseUrl, world.token, unchanged.cursor);
    const rows: Array<Record<string, string | number>> = [
      {
        pull: 'first, whole',
        requests: full.requests,
        vehicles: full.vehicles,
        ms: full.ms.toFixed(0),
        bytes: full.bytes,
        'gzip bytes': full.gzipBytes,
        'bytes / vehicle': (full.bytes / VEHICLES).toFixed(1),
      },
      {
        pull: 'unchanged',
        requests: unchanged.requests,
        vehicles: unchanged.vehicles,
        ms: unchanged.ms.toFixed(1),
        bytes: unchanged.bytes,
        'gzip bytes': unchanged.gzipBytes,
        'bytes / vehicle': '-',
      },
      {
        pull: `after ${CHANGED} changes`,
        requests: changed.requests,
        vehicles: changed.vehicles,
        ms: changed.ms.toFixed(1),
        bytes: changed.bytes,
        'gzip bytes': changed.gzipBytes,
        'bytes / vehicle': (changed.bytes / CHANGED).toFixed(1),
      },
    ];
    process.stdout.write(
      'The change feed, pulled by a plain client (GET /v1/profiles/vehicles/changes, 2,000 a page):\n',
    );
    printTable(rows);
    const unchangedMet = unchanged.bytes < UNCHANGED_TARGET_BYTES;
    process.stdout.write(
      `\nUnchanged pull: ${unchanged.bytes} bytes, ${((unchanged.bytes / full.bytes) * 100).toFixed(4)}% of the first pull; target under ${UNCHANGED_TARGET_BYTES} bytes: ${unchangedMet ? 'met' : 'NOT met'}\n`,
    );

    let browser: BrowserFootprint | undefined;
    let footprintMet: boolean | undefined;
    if (BROWSER) {
      // The spawned server built the kiosk as it started (npm start does), and serves it at /kiosk/.
      const web = kioskWebAt(server);
      const kiosk = await buildToken(
        { database: database.database, baseUrl: server.baseUrl },
        { accountId: world.accountId, siteIds: [world.siteId], channel: 'KIOSK', mode: 'gate' },
      );
      browser = await measureInChromium(web, server.baseUrl, kiosk.token, world.siteId);
      const grown = browser.usageAfter - browser.usageBefore;
      footprintMet = grown < TARGET_MB * MB && browser.diskBytes < TARGET_MB * MB;
      process.stdout.write('\nThe kiosk in Chromium (its own pull code, an on-disk profile):\n');
      printTable([
        {
          measure: 'first pull into IndexedDB',
          value: `${(browser.firstPullMs / 1000).toFixed(1)} s (${browser.feedRequests} requests, ${mb(browser.feedBytes)} MB)`,
        },
        {
          measure: 'storage usage before → after',
          value: `${mb(browser.usageBefore)} → ${mb(browser.usageAfter)} MB (IndexedDB ${browser.indexedDbAfter === null ? '?' : mb(browser.indexedDbAfter)} MB)`,
        },
        {
          measure: 'grown by the copy',
          value: `${mb(grown)} MB, ${(grown / VEHICLES).toFixed(0)} bytes a vehicle, ${(grown / (TARGET_MB * MB)).toFixed(2)} of the ${TARGET_MB} MB target`,
        },
        { measure: 'IndexedDB folder on disk', value: `${mb(browser.diskBytes)} MB` },
        { measure: 'pull after a reload (unchanged)', value: `${browser.reloadPullBytes} bytes` },
      ]);
      process.stdout.write(
        `\nTarget: ${VEHICLES} vehicles within ${TARGET_MB} MB of IndexedDB: ${footprintMet ? 'met' : 'NOT met'}\n`,
      );
    }
    const file = await writeResults('gate', {
      vehicles: VEHICLES,
      full,
      unchanged,
      changed,
      browser,
      unchangedMet,
      footprintMet,
    });
    process.stdout.write(`\nResults: ${file}\n`);
    if (!unchangedMet || footprintMet === false) process.exitCode = 1;
  } finally {
    await stop();
  }
}

runBench('bench:gate', main);
