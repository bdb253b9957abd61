/**
 * npm run bench:plates — search vehicle visits by license plate over 100,000 visits on 10 sites, through the
 * real HTTP stack, as milliseconds and as a ratio to a baseline (reading one site) sampled round-robin with it;
 * and the query plan of the plate search, which must read the normalized-plate index (printed in full).
 * Target: the plate search answers in under 10 ms median, its open visit first.
 */
import { normalizePlate } from '../shared/src/domain';
import type { VehicleCheckin } from '../shared/src/schemas/vehicles';
import { type Executor, queryOne, queryRows } from '../server/src/db/query';
import { type VehicleCheckinFilter, vehicleCheckinSearchSql } from '../server/src/queries/vehicleCheckinSearch';
import { apiClient } from '../test/support/http';
import {
  percentiles,
  printTable,
  runBench,
  siteIdsOf,
  startBenchApi,
  timeInterleaved,
  timeSequential,
  writeResults,
} from './harness';
import { sql } from '../server/src/db/sql';

const VISITS = Number(process.env.BENCH_VISITS ?? 100_000);
const PLATES = Math.max(1, Math.floor(VISITS / 5));
/** One fleet truck with many visits, open at one gate since before its latest visits elsewhere. */
const BUSY_VISITS = Math.min(5_000, Math.floor(VISITS / 20));
const SITES = 10;
const SAMPLES = Number(process.env.BENCH_SAMPLES ?? 300);
const TARGET_MS = 10;

type Db = Executor;
const plateOf = (n: number) => `P-${String(n).padStart(6, '0')}`;
const BUSY = 'BUSY-1';

async function seed(db: Db, accountId: number, siteIds: number[]): Promise<void> {
  // Every plate about five visits over a year, all closed; then the newest visit of every third plate is
  // still open (IN or PENDING), one per plate, as the unique index wants.
  await queryOne(
    db,
    sql`INSERT INTO vehicle_checkins (account_id, site_id, license_plate, plate_norm, status, entry_source, entry_at,
       exit_source, exit_at, last_event_at, created_at, updated_at)
     SELECT ${accountId}, (${siteIds}::int[])[1 + (g % ${siteIds.length})], 'P-' || lpad((g % ${PLATES})::text, 6, '0'), 'P' || lpad((g % ${PLATES})::text, 6, '0'),
       'OUT', 'KIOSK', s.entry, 'KIOSK', s.entry + interval '2 hours', s.entry, s.entry, s.entry
     FROM generate_series(1, ${VISITS - BUSY_VISITS}) AS g,
     LATERAL (SELECT now() - interval '1 day' - (random() * interval '365 days') AS entry) AS s`,
  );
  await queryOne(
    db,
    sql`UPDATE vehicle_checkins SET status = CASE WHEN id % 2 = 0 THEN 'IN' ELSE 'PENDING' END, exit_at = NULL, exit_source = NULL
     WHERE id IN (SELECT DISTINCT ON (plate_norm) id FROM vehicle_checkins
                  WHERE account_id = ${accountId} AND right(plate_norm, 6)::int % 3 = 0 ORDER BY plate_norm, entry_at DESC)`,
  );
  await queryOne(
    db,
    sql`INSERT INTO vehicle_checkins (account_id, site_id, license_plate, plate_norm, status, entry_source, entry_at,
       exit_source, exit_at, last_event_at, created_at, updated_at)
     SELECT ${accountId}, (${siteIds}::int[])[1 + (g % ${siteIds.length})], ${BUSY}, ${normalizePlate(BUSY)}, CASE WHEN g = ${40} THEN 'IN' ELSE 'OUT' END, 'API', s.entry,
       CASE WHEN g = ${40} THEN NULL ELSE 'API' END, CASE WHEN g = ${40} THEN NULL ELSE s.entry + interval '1 hour' END,
       s.entry, s.entry, s.entry
     FROM generate_series(1, ${BUSY_VISITS}) AS g, LATERAL (SELECT now() - (g * interval '100 minutes') AS entry) AS s`,
  );
  await queryOne(db, sql`ANALYZE vehicle_checkins`);
}

interface PlanNode {
  'Node Type'?: string;
  'Relation Name'?: string;
  'Index Name'?: string;
  Plans?: PlanNode[];
}

/** Every scan of vehicle_checkins in a plan: the index it reads, or "Seq Scan". */
function scansOfVisits(node: PlanNode): string[] {
  const own = node['Relation Name'] === 'vehicle_checkins' ? [node['Index Name'] ?? node['Node Type'] ?? '?'] : [];
  return [...own, ...(node.Plans ?? []).flatMap(scansOfVisits)];
}

async function explain(db: Db, filter: VehicleCheckinFilter): Promise<{ scans: string[]; text: string }> {
  const { statement } = vehicleCheckinSearchSql(filter);
  const json = await queryRows<{ 'QUERY PLAN': Array<{ Plan: PlanNode }> }>(
    db,
    sql`EXPLAIN (FORMAT JSON) ${statement}`,
  );
  const text = await queryRows<{ 'QUERY PLAN': string }>(db, sql`EXPLAIN (ANALYZE, BUFFERS, COSTS OFF) ${statement}`);
  const root = json[0]?.['QUERY PLAN'][0]?.Plan;
  return { scans: root ? scansOfVisits(root) : [], text: text.map((row) => row['QUERY PLAN']).join('\n') };
}

async function main(): Promise<void> {
  const { database, server, world, stop } = await startBenchApi('gatehouse_bench_plates');
  const db = database.database;
  try {
    const siteIds = await siteIdsOf(database.database, world, SITES);
    const started = Date.now();
    await seed(db, world.accountId, siteIds);
    process.stdout.write(
      `Seeded ${VISITS} vehicle visits (${PLATES} plates, one with ${BUSY_VISITS}) over ${SITES} sites in ${((Date.now() - started) / 1000).toFixed(1)} s\n\n`,
    );

    const api = apiClient(server.baseUrl, world.token);
    const search = (body: Record<string, unknown>) =>
      api.post<{ data: VehicleCheckin[]; nextCursor: string | null }>('/v1/checkins/vehicles/search', body);
    // Rotate over plates that have an open visit, each typed as a gate would (lower case, a space).
    let turn = 0;
    const openPlate = () =>
      plateOf(3 * (1 + (turn++ % Math.floor((PLATES - 1) / 3))))
        .toLowerCase()
        .replace('-', ' ');
    const busyFirst = await search({ licensePlate: BUSY, limit: 50 });
    if (busyFirst.body.data[0]?.status !== 'IN') throw new Error('the busy plate’s open visit is not first');
    const sample = await search({ licensePlate: openPlate() });
    if (!sample.body.data[0] || !['IN', 'PENDING'].includes(sample.body.data[0].status))
      throw new Error('the open visit is not first');
    const busyCursor = busyFirst.body.nextCursor ?? undefined;
    const account = world.accountId;

    const shapes: Array<{
      name: string;
      request: () => Promise<{ status: number }>;
      filter?: VehicleCheckinFilter;
      target?: boolean;
    }> = [
      { name: 'baseline: GET one site', request: () => api.get(`/v1/sites/${world.siteId}`) },
      {
        name: 'search by plate (open visit first)',
        target: true,
        request: () => search({ licensePlate: openPlate() }),
        filter: { accountId: account, plateNorm: normalizePlate(plateOf(3)), limit: 50 },
      },
      {
        name: `search busy plate (${BUSY_VISITS} visits)`,
        target: true,
        request: () => search({ licensePlate: BUSY }),
        filter: { accountId: account, plateNorm: normalizePlate(BUSY), limit: 50 },
      },
      {
        name: 'busy plate, second page',
        target: true,
        request: () => search({ licensePlate: BUSY, cursor: busyCursor }),
        filter: { accountId: account, plateNorm: normalizePlate(BUSY), limit: 50, cursor: busyCursor },
      },
      {
        name: 'site list by plate',
        request: () =>
          api.get(`/v1/sites/${world.siteId}/checkins/vehicles?licensePlate=${encodeURIComponent(openPlate())}`),
        filter: { accountId: account, siteIds: [world.siteId], plateNorm: normalizePlate(plateOf(3)), limit: 50 },
      },
      {
        name: 'on site now, all sites',
        request: () => search({ status: ['IN', 'PENDING'] }),
        filter: { accountId: account, status: ['IN', 'PENDING'], limit: 50 },
      },
    ];

    const timings = await timeInterleaved(
      shapes.map((shape) => async () => {
        const response = await shape.request();
        if (response.status !== 200) throw new Error(`${shape.name}: HTTP ${response.status}`);
      }),
      SAMPLES,
    );
    const rows: Array<Record<string, string | number>> = [];
    const baseline = percentiles(timings[0] ?? []).p50;
    let targetMet = true;
    let allIndexed = true;
    for (const [index, shape] of shapes.entries()) {
      const { p50, p95 } = percentiles(timings[index] ?? []);
      let plan = '-';
      let sqlP50 = '-';
      if (shape.filter) {
        const { scans } = await explain(db, shape.filter);
        const seq = scans.includes('Seq Scan');
        allIndexed &&= !seq && scans.length > 0;
        plan = [...new Set(scans)].join(' + ');
        const { statement } = vehicleCheckinSearchSql(shape.filter);
        sqlP50 = percentiles(
          await timeSequential(async () => void (await queryRows(db, statement)), SAMPLES),
        ).p50.toFixed(2);
      }
      if (shape.target) targetMet &&= p50 < TARGET_MS;
      rows.push({
        shape: shape.name,
        'p50 ms': p50.toFixed(2),
        'p95 ms': p95.toFixed(2),
        'p50 / baseline': (p50 / baseline).toFixed(2),
        'SQL p50 ms': sqlP50,
        reads: plan,
      });
    }
    printTable(rows);
    const plateFilter = shapes[1]?.filter as VehicleCheckinFilter;
    const { scans, text } = await explain(db, plateFilter);
    const usesPlateIndex = scans.length > 0 && scans.every((scan) => scan.startsWith('vehicle_checkins_plate_'));
    process.stdout.write(`\nPlan of the plate search (EXPLAIN ANALYZE):\n${text}\n`);
    process.stdout.write(
      `\nTarget: plate search under ${TARGET_MS} ms median: ${targetMet ? 'met' : 'NOT met'}; ` +
        `plate search reads only the normalized-plate indexes: ${usesPlateIndex ? 'yes' : 'NO'}; ` +
        `no sequential scan of vehicle_checkins in any plan: ${allIndexed ? 'yes' : 'NO'}\n`,
    );
    await writeResults('plates', {
      visits: VISITS,
      plates: PLATES,
      sites: SITES,
      rows,
      targetMet,
      usesPlateIndex,
      allIndexed,
      plan: text,
    });
    if (!targetMet || !usesPlateIndex || !allIndexed) process.exitCode = 1;
  } finally {
    await stop();
  }
}

runBench('bench:plates', main);
