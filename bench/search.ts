/**
 * npm run bench:search — list and search page latency over 200,000 check-ins on 50 sites, through the real
 * HTTP stack, as milliseconds and as a ratio to a baseline (reading one site) measured in the same run;
 * and the query plans of the same statements, which must not scan person_checkins sequentially.
 * `npm run bench` reuses the seeding and the shapes (exported) to show the cost does not grow with the table.
 */
import { type Executor, queryOne, queryRows } from '../server/src/db/query';
import { type PersonCheckinFilter, personCheckinSearchSql } from '../server/src/queries/personCheckinSearch';
import type { World } from '../test/support/factories';
import { type ApiClient, apiClient } from '../test/support/http';
import {
  isEntryPoint,
  percentiles,
  printTable,
  runBench,
  siteIdsOf,
  startBenchApi,
  timeInterleaved,
  writeResults,
} from './harness';
import { sql } from '../server/src/db/sql';

const CHECKINS = Number(process.env.BENCH_CHECKINS ?? 200_000);
export const SEARCH_SITES = 50;
const SAMPLES = Number(process.env.BENCH_SAMPLES ?? 200);
const TARGET_MS = 20;

/** Rows per INSERT: each statement stays well inside the pool's 30 s statement_timeout. */
const SEED_BATCH = 100_000;

/** Adds `count` check-ins spread over the last year on `siteIds` (a call adds to what earlier calls made). */
export async function seedCheckins(db: Executor, accountId: number, siteIds: number[], count: number): Promise<void> {
  // Most visits are over (OUT); about 1 in 40 is still open; sources and names vary so filters are selective,
  // and one source in each direction is rare (1 in 1,000), as an old import's or an odd checkout's would be.
  for (let done = 0; done < count; done += SEED_BATCH) {
    await queryOne(
      db,
      sql`INSERT INTO person_checkins (account_id, site_id, status, first_name, last_name, email, company, entry_source,
         entry_at, exit_source, exit_at, last_event_at, created_at, updated_at)
       SELECT ${accountId}, (${siteIds}::int[])[1 + (g % ${siteIds.length})],
         s.status, s.first, 'Visitor' || g, 'v' || g || '@example.com', (ARRAY['ACME','Globex','Initech','Umbrella','Hooli'])[1 + g % 5],
         CASE WHEN g % 1000 = 7 THEN 'WORKFORCE' ELSE (ARRAY['API','KIOSK','QR_CODE','MANUAL'])[1 + g % 4] END, s.entry,
         CASE WHEN s.status <> 'OUT' THEN NULL WHEN g % 1000 = 11 THEN 'OTHER' ELSE (ARRAY['API','KIOSK'])[1 + g % 2] END,
         CASE WHEN s.status = 'OUT' THEN s.entry + interval '4 hours' END,
         s.entry, s.entry, s.entry
       FROM generate_series(${done}::int + 1, ${Math.min(count, done + SEED_BATCH)}::int) AS g,
       LATERAL (SELECT
         CASE WHEN g % 40 = 0 THEN (ARRAY['IN','ON_BREAK','PENDING','STOP'])[1 + (g / 40) % 4] ELSE 'OUT' END AS status,
         (ARRAY['Ada','Grace','Alan','Edsger','Barbara','Donald','Margaret','Ken'])[1 + g % 8] AS first,
         now() - (((${count} - g)::float / ${count}) * interval '365 days') AS entry) AS s`,
    );
  }
  await queryOne(db, sql`ANALYZE person_checkins`);
}

function planUsesSeqScanOnCheckins(plan: unknown): boolean {
  if (plan === null || typeof plan !== 'object') return false;
  const node = plan as Record<string, unknown>;
  if (node['Node Type'] === 'Seq Scan' && node['Relation Name'] === 'person_checkins') return true;
  return Object.values(node).some((value) =>
    Array.isArray(value) ? value.some(planUsesSeqScanOnCheckins) : planUsesSeqScanOnCheckins(value),
  );
}

export interface SearchShape {
  name: string;
  request: () => Promise<{ status: number }>;
  /** The statement behind it, to EXPLAIN (none for the baseline). */
  filter?: PersonCheckinFilter;
}

/** The list and search pages a client asks for, first the baseline (reading one site); `siteIds` from siteIdsOf. */
export async function searchShapes(api: ApiClient, world: World, siteIds: number[]): Promise<SearchShape[]> {
  const site = world.siteId;
  const firstPage = await api.post<{ nextCursor: string | null }>('/v1/checkins/people/search', {
    status: ['OUT'],
    limit: 50,
  });
  const second = await api.post<{ nextCursor: string | null }>('/v1/checkins/people/search', {
    status: ['OUT'],
    limit: 50,
    cursor: firstPage.body.nextCursor,
  });
  const deepCursor = second.body.nextCursor ?? undefined;
  const monthAgo = new Date(Date.now() - 30 * 86_400_000).toISOString();
  const weekAgo = new Date(Date.now() - 7 * 86_400_000).toISOString();
  return [
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
      request: () =>
        api.post('/v1/checkins/people/search', { status: ['OUT'], from: monthAgo, to: weekAgo, limit: 50 }),
      filter: {
        accountId: world.accountId,
        status: ['OUT'],
        from: new Date(monthAgo),
        to: new Date(weekAgo),
        limit: 50,
      },
    },
    {
      name: 'search 5 sites, entrySource',
      request: () =>
        api.post('/v1/checkins/people/search', { siteIds: siteIds.slice(0, 5), entrySource: ['KIOSK'], limit: 50 }),
      filter: { accountId: world.accountId, siteIds: siteIds.slice(0, 5), entrySource: ['KIOSK'], limit: 50 },
    },
    {
      name: 'search all sites, rare entry source',
      request: () => api.post('/v1/checkins/people/search', { entrySource: ['WORKFORCE'], limit: 50 }),
      filter: { accountId: world.accountId, entrySource: ['WORKFORCE'], limit: 50 },
    },
    {
      name: 'search all sites, rare exit source',
      request: () => api.post('/v1/checkins/people/search', { exitSource: ['OTHER'], limit: 50 }),
      filter: { accountId: world.accountId, exitSource: ['OTHER'], limit: 50 },
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
}

export interface ShapeTiming {
  shape: string;
  p50: number;
  p95: number;
  /** p50 over the baseline's p50 (the first shape). */
  ratio: number;
  /** `index`, `SEQ SCAN`, or `-` for the baseline. */
  plan: string;
}

/** Times every shape (`samples` requests each, round-robin so drift falls on all alike) and EXPLAINs its statement. */
export async function measureShapes(db: Executor, shapes: SearchShape[], samples: number): Promise<ShapeTiming[]> {
  const times = await timeInterleaved(
    shapes.map((shape) => async () => {
      const response = await shape.request();
      if (response.status !== 200) throw new Error(`${shape.name}: HTTP ${response.status}`);
    }),
    samples,
  );
  const baseline = percentiles(times[0] ?? []).p50;
  const timings: ShapeTiming[] = [];
  for (const [index, shape] of shapes.entries()) {
    const { p50, p95 } = percentiles(times[index] ?? []);
    let plan = '-';
    if (shape.filter) {
      const { statement } = personCheckinSearchSql(shape.filter);
      const explained = await queryRows<{ 'QUERY PLAN': unknown }>(db, sql`EXPLAIN (FORMAT JSON) ${statement}`);
      plan = planUsesSeqScanOnCheckins(explained[0]?.['QUERY PLAN']) ? 'SEQ SCAN' : 'index';
    }
    timings.push({ shape: shape.name, p50, p95, ratio: p50 / baseline, plan });
  }
  return timings;
}

async function main(): Promise<void> {
  const { database, server, world, stop } = await startBenchApi('gatehouse_bench_search');
  const db = database.database;
  try {
    const siteIds = await siteIdsOf(database.database, world, SEARCH_SITES);
    const started = Date.now();
    await seedCheckins(db, world.accountId, siteIds, CHECKINS);
    process.stdout.write(
      `Seeded ${CHECKINS} check-ins over ${siteIds.length} sites in ${((Date.now() - started) / 1000).toFixed(1)} s\n\n`,
    );

    const shapes = await searchShapes(apiClient(server.baseUrl, world.token), world, siteIds);
    const timings = await measureShapes(db, shapes, SAMPLES);
    const measured = timings.filter((timing) => timing.plan !== '-');
    const allFast = measured.every((timing) => timing.p50 < TARGET_MS);
    const allIndexed = measured.every((timing) => timing.plan === 'index');
    const rows = timings.map((timing) => ({
      shape: timing.shape,
      'p50 ms': timing.p50.toFixed(2),
      'p95 ms': timing.p95.toFixed(2),
      'p50 / baseline': timing.ratio.toFixed(2),
      plan: timing.plan,
    }));
    printTable(rows);
    process.stdout.write(
      `\nTarget: every page under ${TARGET_MS} ms median: ${allFast ? 'met' : 'NOT met'}; plans without a sequential scan of check-ins: ${allIndexed ? 'yes' : 'NO'}\n`,
    );
    await writeResults('search', { checkins: CHECKINS, sites: SEARCH_SITES, rows, allFast, allIndexed });
  } finally {
    await stop();
  }
}

if (isEntryPoint(import.meta.url)) runBench('bench:search', main);
