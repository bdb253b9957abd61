import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { type BrowserContext, chromium } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Database, createDatabase } from '../../server/src/db/database';
import { CHROMIUM_ARGS, CHROMIUM_PATH, browserAvailable } from '../support/browser';
import { createTestDatabase } from '../support/database';
import { checkInThroughForm, outboxCount, screenshot } from '../support/kioskWeb';
import { type ServerProcess, spawnServer } from '../support/serverProcess';
import { addKiosk, controlledByServiceWorker, lobby, pairAndSkipPin, serverVisits } from '../support/tablet';

// The kiosk on a tablet (CONTRACT §22, docs/kiosk-tablet.md): the real server, started as `npm start` starts
// it (which builds the kiosk), serves it at /kiosk/ as an installable app that opens offline, even after the
// browser restarts, and its offline check-ins reach the server once.

interface Manifest {
  name: string;
  short_name: string;
  display: string;
  start_url: string;
  scope: string;
  id: string;
  icons: Array<{ src: string; sizes: string; type: string; purpose?: string }>;
}

describe.skipIf(!browserAvailable())('the kiosk as an installable app at /kiosk', () => {
  let server: ServerProcess;
  let database: Database;
  const profiles: string[] = [];

  beforeAll(async () => {
    const databaseUrl = await createTestDatabase();
    database = createDatabase({ url: databaseUrl, poolMax: 4 });
    // Building the kiosk (and the console) can take a minute on a busy machine.
    server = await spawnServer(
      { DATABASE_URL: databaseUrl, SEED_DEMO: 'false', RATE_LIMIT_PER_MINUTE: '1000000' },
      180_000,
    );
  }, 240_000);

  afterAll(async () => {
    server?.child.kill('SIGTERM');
    await server?.exited;
    await database?.close();
    for (const profile of profiles) await fs.rm(profile, { recursive: true, force: true });
  });

  const harness = () => ({ database, baseUrl: server.baseUrl });
  const kioskUrl = () => `${server.baseUrl}/kiosk/`;

  /** Chromium on a profile kept on disk (as a tablet keeps its browser's data), started afresh each call. */
  async function startBrowser(profile: string): Promise<BrowserContext> {
    const context = await chromium.launchPersistentContext(profile, {
      executablePath: CHROMIUM_PATH,
      args: CHROMIUM_ARGS,
      viewport: { width: 1280, height: 800 },
    });
    context.setDefaultTimeout(15_000);
    return context;
  }

  async function newProfile(): Promise<string> {
    const profile = await fs.mkdtemp(path.join(os.tmpdir(), 'gatehouse-tablet-'));
    profiles.push(profile);
    return profile;
  }

  it('meets the install criteria: a manifest with icons, display and scope, a service worker in control', async () => {
    const context = await startBrowser(await newProfile());
    const page = context.pages()[0] ?? (await context.newPage());
    await page.goto(kioskUrl());
    expect(await controlledByServiceWorker(page)).toBe(`${server.baseUrl}/kiosk/sw.js`);
    const registration = await page.evaluate(async () => {
      const ready = await navigator.serviceWorker.ready;
      return { scope: ready.scope, state: ready.active?.state };
    });
    expect(registration).toEqual({ scope: kioskUrl(), state: 'activated' });

    // Chromium's own verdict: nothing stands in the way of Install.
    const cdp = await context.newCDPSession(page);
    expect((await cdp.send('Page.getInstallabilityErrors')).installabilityErrors).toEqual([]);
    const { url: manifestUrl, errors } = await cdp.send('Page.getAppManifest');
    expect(errors).toEqual([]);
    const manifest = (await (await fetch(manifestUrl)).json()) as Manifest;
    expect(manifest).toMatchObject({ name: 'Gatehouse Kiosk', short_name: 'Gatehouse' });
    expect(['standalone', 'fullscreen']).toContain(manifest.display);
    for (const member of [manifest.start_url, manifest.scope, manifest.id])
      expect(new URL(member, manifestUrl).href).toBe(kioskUrl());
    // Real PNGs of the sizes they claim, a maskable one among them.
    const sizes = new Set<string>();
    for (const icon of manifest.icons) {
      const response = await fetch(new URL(icon.src, manifestUrl));
      expect(response.status).toBe(200);
      const png = Buffer.from(await response.arrayBuffer());
      expect(png.subarray(1, 4).toString('ascii')).toBe('PNG');
      expect(`${png.readUInt32BE(16)}x${png.readUInt32BE(20)}`).toBe(icon.sizes);
      sizes.add(`${icon.sizes} ${icon.purpose ?? 'any'}`);
    }
    expect([...sizes].sort()).toEqual(['192x192 any', '192x192 maskable', '512x512 any', '512x512 maskable']);

    // Served by the server it pairs with: that address is already in the field. No camera here: no button.
    expect(await page.getByLabel('Server address').inputValue()).toBe(server.baseUrl);
    expect(await page.getByRole('button', { name: 'Scan with camera' }).count()).toBe(0);
    await context.close();
  }, 90_000);

  it('pairs by code, opens offline after a restart and a reload, and its offline check-in arrives once', async () => {
    const { siteId, manager, api } = await lobby(harness());
    const code = await addKiosk(manager, siteId);
    const profile = await newProfile();

    const first = await startBrowser(profile);
    const page = first.pages()[0] ?? (await first.newPage());
    await page.goto(kioskUrl());
    await controlledByServiceWorker(page);
    // Only the code is typed: the server address is the page's own.
    await page.getByLabel('Pairing code').fill(code);
    await pairAndSkipPin(page);
    await first.close();

    // The tablet restarts with no network: the app opens from the device, still paired.
    const second = await startBrowser(profile);
    await second.setOffline(true);
    const offline = second.pages()[0] ?? (await second.newPage());
    await offline.goto(kioskUrl());
    await expect.poll(() => offline.getByRole('status').textContent()).toMatch(/Offline/);
    await checkInThroughForm(offline, 'Ada', 'Lovelace');
    await expect.poll(() => offline.getByRole('status').textContent()).toMatch(/Offline.*1 pending/);
    await screenshot(offline, 'kiosk-tablet-offline');

    // A reload, still offline: the app again, the check-in still queued.
    await offline.reload();
    await offline.getByRole('button', { name: 'Check in', exact: true }).waitFor();
    expect(await outboxCount(offline)).toBe(1);
    expect(await serverVisits(api, siteId)).toEqual([]);

    await second.setOffline(false);
    await expect.poll(() => outboxCount(offline), { timeout: 20_000 }).toBe(0);
    await expect.poll(() => offline.getByRole('status').textContent()).toMatch(/Online.*All synced/);
    expect(await serverVisits(api, siteId)).toEqual(['Ada IN']);
    await second.close();
  }, 120_000);
});
