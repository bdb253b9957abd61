/**
 * npm run bench:search — list and search page latency over 200,000 check-ins on 50 sites, through the real
 * HTTP stack, as milliseconds and as a ratio to a baseline (reading one site) measured in the same run;
 * and the query plans of the same statements, which must not scan person_checkins sequentially.
 */
import fs from 'node:fs/promises';
import { queryOne, queryRows } from '../server/src/db/query';
import { type PersonCheckinFilter, personCheckinSearchSql } from '../server/src/queries/personCheckinSearch';
import { buildWorld } from '../test/support/factories';
import { apiClient } from '../test/support/http';
import { spawnServer } from '../test/support/serverProcess';
import { percentiles, printTable, siteIdsOf, startBenchDatabase, timeSequential } from './harness';

const CHECKINS = Number(process.env.BENCH_CHECKINS ?? 200_000);
const SITES = 50;
const SAMPLES = Number(process.env.BENCH_SAMPLES ?? 200);
const TARGET_MS = 20;

async function seed(db: { sequelize: import('sequelize').Sequelize }, accountId: number, siteIds: number[]): Promise<void> {
  // Most visits are over (OUT); about 1 in 40 is still open; sources and names vary so filters are selective.
  await queryOne(
    db,
    `INSERT INTO person_checkins (account_id, site_id, status, first_name, last_name, email, company, entry_source,
       entry_at, exit_source, exit_at, last_event_at, created_at, updated_at)
     SELECT $1, ($2::int[])[1 + (g % $3)],
       s.status, s.first, 'Visitor' || g, 'v' || g || '@example.com', (ARRAY['ACME','Globex','Initech','Umbrella','Hooli'])[1 + g % 5],
       (ARRAY['API','KIOSK','QR_CODE','MANUAL'])[1 + g % 4], s.entry,
       CASE WHEN s.status = 'OUT' THEN (ARRAY['API','KIOSK'])[1 + g % 2] END,
       CASE WHEN s.status = 'OUT' THEN s.entry + interval '4 hours' END,
       s.entry, s.entry, s.entry
     FROM generate_series(1, $4) AS g,
     LATERAL (SELECT
       CASE WHEN g % 40 = 0 THEN (ARRAY['IN','ON_BREAK','PENDING','STOP'])[1 + (g / 40) % 4] ELSE 'OUT' END AS status,
       (ARRAY['Ada','Grace','Alan','Edsger','Barbara','Donald','Margaret','Ken'])[1 + g % 8] AS first,
       now() - ((($4 - g)::float / $4) * interval '365 days') AS entry) AS s`,
    [accountId, siteIds, siteIds.length, CHECKINS],
  );
  await queryOne(db, 'ANALYZE person_checkins');
}

function planUsesSeqScanOnCheckins(plan: unknown): boolean {
  if (plan === null || typeof plan !== 'object') return false;
  const node = plan as Record<string, unknown>;
  if (node['Node Type'] === 'Seq Scan' && node['Relation Name'] === 'person_checkins') return true;
  return Object.values(node).some((value) =>
    Array.isArray(value) ? value.some(planUsesSeqScanOnCheckins) : planUsesSeqScanOnCheckins(value),
  );
}

async function main(): Promise<void> {
  const database = await startBenchDatabase('gatehouse_bench_search');
  const db = { sequelize: database.sequelize };
  const server = await spawnServer({ DATABASE_URL: database.url, SEED_DEMO: 'false', RATE_LIMIT_PER_MINUTE: '1000000000' });
  try {
    const world = await buildWorld({ sequelize: database.sequelize, baseUrl: server.baseUrl });
    const siteIds = await siteIdsOf(database.sequelize, world, SITES);
    const started = Date.now();
    await seed(db, world.accountId, siteIds);
    process.stdout.write(`Seeded ${CHECKINS} check-ins over ${siteIds.length} sites in ${((Date.now() - started) / 1000).toFixed(1)} s\n\n`);

    const api = apiClient(server.baseUrl, world.token);
    const site = world.siteId;
    const firstPage = await api.post<{ nextCursor: string | null }>('/v1/checkins/people/search', { status: ['OUT'], limit: 50 });
    const second = await api.post<{ nextCursor: string | null }>('/v1/checkins/people/search', { status: ['OUT'], limit: 50, cursor: firstPage.body.nextCursor });
    const deepCursor = second.body.nextCursor ?? undefined;
    const monthAgo = new Date(Date.now() - 30 * 86_400_000).toISOString();
    const weekAgo = new Date(Date.now() - 7 * 86_400_000).toISOString();

    const shapes: Array<{ name: string; request: () => Promise<unknown>; filter?: PersonCheckinFilter }> = [
      { name: 'baseline: GET one site', request: () => api.get(`/v1/sites/${site}`) },
      {
        name: 'site list page (50)',
        request: () => api.get(`/v1/sites/${site}/checkins/people?limit=50`),
        filter: { accountId: world.accountId, siteIds: [site], limit: 50 },
      },
      {
        name: 'site list, on site now',
        request: () => api.get(`/v1/sites/${site}/checkins/people?status=IN,ON_BREAK&limit=50`),
        filter: { accountId: world.accountId, siteIds: [site], status: ['IN', 'ON_BREAK'], limit: 50 },
      },
      {
        name: 'search all sites, OUT, month',
        request: () => api.post('/v1/checkins/people/search', { status: ['OUT'], from: monthAgo, to: weekAgo, limit: 50 }),
        filter: { accountId: world.accountId, status: ['OUT'], from: new Date(monthAgo), to: new Date(weekAgo), limit: 50 },
      },
      {
        name: 'search 5 sites, entrySource',
        request: () => api.post('/v1/checkins/people/search', { siteIds: siteIds.slice(0, 5), entrySource: ['KIOSK'], limit: 50 }),
        filter: { accountId: world.accountId, siteIds: siteIds.slice(0, 5), entrySource: ['KIOSK'], limit: 50 },
      },
      {
        name: 'search q prefix (email)',
        request: () => api.post('/v1/checkins/people/search', { q: 'v12345', limit: 50 }),
        filter: { accountId: world.accountId, q: 'v12345', limit: 50 },
      },
      {
        name: 'search, third page (cursor)',
        request: () => api.post('/v1/checkins/people/search', { status: ['OUT'], limit: 50, cursor: deepCursor }),
        filter: { accountId: world.accountId, status: ['OUT'], limit: 50, cursor: deepCursor },
      },
    ];

    const rows: Array<Record<string, string | number>> = [];
    let baseline = Number.NaN;
    let allFast = true;
    let allIndexed = true;
    for (const shape of shapes) {
      const samples = await timeSequential(async () => {
        const response = (await shape.request()) as { status: number };
        if (response.status !== 200) throw new Error(`${shape.name}: HTTP ${response.status}`);
      }, SAMPLES);
      const { p50, p95 } = percentiles(samples);
      if (Number.isNaN(baseline)) baseline = p50;
      let plan = '-';
      if (shape.filter) {
        const { sql, bind } = personCheckinSearchSql(shape.filter);
        const explained = await queryRows<{ 'QUERY PLAN': unknown }>(db, `EXPLAIN (FORMAT JSON) ${sql}`, bind);
        const seq = planUsesSeqScanOnCheckins(explained[0]?.['QUERY PLAN']);
        plan = seq ? 'SEQ SCAN' : 'index';
        allIndexed &&= !seq;
        allFast &&= p50 < TARGET_MS;
      }
      rows.push({ shape: shape.name, 'p50 ms': p50.toFixed(2), 'p95 ms': p95.toFixed(2), 'p50 / baseline': (p50 / baseline).toFixed(2), plan });
    }
    printTable(rows);
    process.stdout.write(
      `\nTarget: every page under ${TARGET_MS} ms median: ${allFast ? 'met' : 'NOT met'}; plans without a sequential scan of check-ins: ${allIndexed ? 'yes' : 'NO'}\n`,
    );
    await fs.mkdir('bench/results', { recursive: true });
    await fs.writeFile(`bench/results/search-${Date.now()}.json`, JSON.stringify({ checkins: CHECKINS, sites: SITES, rows, allFast, allIndexed }, null, 2));
  } finally {
    server.child.kill('SIGTERM');
    await server.exited;
    await database.close();
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`bench:search failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
