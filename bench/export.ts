/**
 * npm run bench:export — `GET /v1/checkins/people/export` of 1,000,000 person check-ins, streamed over HTTP
 * from the real server in a child process: rows per second, and the server's peak resident memory during
 * the export against its memory right before it (target: grows by less than 50 MB). Baseline, in the same
 * run: the same rows read by a plain `pg` client through a server-side cursor, as text lines.
 */
import pg from 'pg';
import { buildToken, buildWorld } from '../test/support/factories';
import { spawnServer } from '../test/support/serverProcess';
import {
  envNumber,
  isEntryPoint,
  memoryOf,
  printTable,
  runBench,
  siteIdsOf,
  startBenchDatabase,
  writeResults,
} from './harness';
import { seedCheckins } from './search';

const CHECKINS = envNumber('BENCH_EXPORT_CHECKINS', 1_000_000);
/** Exports streamed at once (a server runs two at a time); rows/s is per export. */
const PARALLEL = envNumber('BENCH_EXPORT_PARALLEL', 1);
const SITES = 5;
const TARGET_MIB = 50;
const SAMPLE_MS = 20;

/** Samples a process's resident memory until stopped; the highest value seen, in MiB. */
function sampleMemory(pid: number): { stop: () => Promise<number> } {
  let peak = 0;
  let running = true;
  const loop = (async () => {
    while (running) {
      peak = Math.max(peak, (await memoryOf(pid)).rssMiB);
      await new Promise((resolve) => setTimeout(resolve, SAMPLE_MS));
    }
  })();
  return {
    async stop() {
      running = false;
      await loop;
      return peak;
    },
  };
}

/** Streams the export, counting bytes and lines as they come (nothing is kept). */
async function streamExport(url: string, token: string): Promise<{ rows: number; bytes: number; ms: number }> {
  const started = performance.now();
  const response = await fetch(url, { headers: { Authorization: `Bearer ${token}` } });
  if (response.status !== 200 || !response.body)
    throw new Error(`export: HTTP ${response.status} ${await response.text()}`);
  let bytes = 0;
  let lines = 0;
  const reader = response.body.getReader();
  for (let read = await reader.read(); !read.done; read = await reader.read()) {
    const chunk = read.value;
    bytes += chunk.byteLength;
    for (let at = chunk.indexOf(0x0a); at !== -1; at = chunk.indexOf(0x0a, at + 1)) lines += 1;
  }
  return { rows: lines - 1, bytes, ms: performance.now() - started };
}

/** The same visits read by a plain client: a server-side cursor, fetched 1,000 at a time, each row joined as a line. */
async function baselineCursor(databaseUrl: string, accountId: number): Promise<{ rows: number; ms: number }> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  const started = performance.now();
  let rows = 0;
  try {
    await client.query('BEGIN');
    await client.query(
      `DECLARE export CURSOR FOR
       SELECT c.id, s.name, s.timezone, c.status, c.first_name, c.last_name, c.email, c.phone, c.company, c.host_name,
              c.purpose, c.custom_fields, c.entry_source, c.entry_at, c.exit_source, c.exit_at, c.decided_by->>'name'
         FROM person_checkins c JOIN sites s ON s.account_id = c.account_id AND s.id = c.site_id
        WHERE c.account_id = $1 ORDER BY c.id`,
      [accountId],
    );
    for (;;) {
      const page = await client.query<Record<string, unknown>>('FETCH 1000 FROM export');
      for (const row of page.rows) {
        if (Object.values(row).join(',').length === 0) throw new Error('empty row');
      }
      rows += page.rows.length;
      if (page.rows.length < 1000) break;
    }
    await client.query('COMMIT');
  } finally {
    await client.end();
  }
  return { rows, ms: performance.now() - started };
}

async function main(): Promise<void> {
  const database = await startBenchDatabase('gatehouse_bench_export');
  const server = await spawnServer({
    DATABASE_URL: database.url,
    SEED_DEMO: 'false',
    RATE_LIMIT_PER_MINUTE: '1000000000',
  });
  const pid = server.child.pid;
  if (pid === undefined) throw new Error('the server has no pid');
  try {
    const world = await buildWorld({ database: database.database, baseUrl: server.baseUrl });
    const siteIds = await siteIdsOf(database.database, world, SITES);
    const seeding = Date.now();
    await seedCheckins(database.database, world.accountId, siteIds, CHECKINS);
    process.stdout.write(
      `Seeded ${CHECKINS} check-ins over ${SITES} sites in ${((Date.now() - seeding) / 1000).toFixed(1)} s\n`,
    );
    const token = await buildToken(
      { database: database.database, baseUrl: server.baseUrl },
      { accountId: world.accountId, allSites: true, scopes: ['exports:read'] },
    );
    const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);
    const url = `${server.baseUrl}/v1/checkins/people/export?from=${day(-400)}&to=${day(1)}`;

    const baseline = await baselineCursor(database.url, world.accountId);
    const atRest = (await memoryOf(pid)).rssMiB;
    // A small export first, so the code paths are loaded before the memory right before is read.
    await streamExport(`${server.baseUrl}/v1/checkins/people/export?from=${day(0)}&to=${day(0)}`, token.token);
    const before = (await memoryOf(pid)).rssMiB;
    const sampler = sampleMemory(pid);
    const all = await Promise.all(Array.from({ length: PARALLEL }, () => streamExport(url, token.token)));
    const exported = all.reduce((slowest, one) => (one.ms > slowest.ms ? one : slowest));
    if (all.some((one) => one.rows !== CHECKINS))
      throw new Error(`an export has ${all.map((one) => one.rows).join(', ')} rows, not ${CHECKINS}`);
    const peak = await sampler.stop();
    const growth = peak - before;
    if (exported.rows !== CHECKINS) throw new Error(`the export has ${exported.rows} rows, not ${CHECKINS}`);

    const exportRate = exported.rows / (exported.ms / 1000);
    const baselineRate = baseline.rows / (baseline.ms / 1000);
    const rows = [
      {
        path: 'baseline: plain pg cursor, same rows',
        rows: baseline.rows,
        seconds: (baseline.ms / 1000).toFixed(1),
        'rows/s': Math.round(baselineRate),
        MB: '-',
      },
      {
        path: `GET /v1/checkins/people/export (HTTP, CSV)${PARALLEL > 1 ? `, ${PARALLEL} at once, slowest` : ''}`,
        rows: exported.rows,
        seconds: (exported.ms / 1000).toFixed(1),
        'rows/s': Math.round(exportRate),
        MB: (exported.bytes / 1e6).toFixed(0),
      },
    ];
    printTable(rows);
    const pass = growth < TARGET_MIB;
    process.stdout.write(
      `\nExport ÷ baseline rows/s: ${(exportRate / baselineRate).toFixed(2)}\n` +
        `Server RSS right before: ${before.toFixed(1)} MiB, peak during the export: ${peak.toFixed(1)} MiB, growth ${growth.toFixed(1)} MiB ` +
        `(target < ${TARGET_MIB}): ${pass ? 'PASS' : 'FAIL'}\n` +
        `Server RSS before any export: ${atRest.toFixed(1)} MiB (the peak is ${(peak - atRest).toFixed(1)} MiB above it; a first export's thread leaves some memory to the next)\n`,
    );
    await writeResults('export', {
      checkins: CHECKINS,
      parallel: PARALLEL,
      rows,
      ratio: exportRate / baselineRate,
      rssAtRestMiB: atRest,
      rssBeforeMiB: before,
      rssPeakMiB: peak,
      growthMiB: growth,
      pass,
    });
    if (!pass) process.exitCode = 1;
  } finally {
    server.child.kill('SIGTERM');
    await server.exited;
    await database.close();
  }
}

if (isEntryPoint(import.meta.url)) runBench('bench:export', main);
