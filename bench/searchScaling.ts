/**
 * List and search page latency as the check-in table grows (10k, 100k, optionally 1M rows): the seeding and
 * the request shapes are bench/search.ts's own. Keyset pages on indexes should cost the same at every size.
 */
import type { Database } from '../server/src/db/database';
import { queryOne } from '../server/src/db/query';
import { buildWorld } from '../test/support/factories';
import { apiClient } from '../test/support/http';
import { siteIdsOf } from './harness';
import { SEARCH_SITES, type ShapeTiming, measureShapes, searchShapes, seedCheckins } from './search';
import { sql } from '../server/src/db/sql';

export interface ScalingStep {
  /** Rows in person_checkins when measured (all accounts). */
  tableRows: number;
  seedSeconds: number;
  timings: ShapeTiming[];
}

/** Grows the table to each size in turn (on an account of its own) and times every shape at each. */
export async function measureSearchScaling(input: {
  database: Database;
  baseUrl: string;
  sizes: number[];
  samples: number;
  onStep?: (step: ScalingStep) => void;
}): Promise<ScalingStep[]> {
  const db = input.database;
  const world = await buildWorld({ database: input.database, baseUrl: input.baseUrl });
  const siteIds = await siteIdsOf(input.database, world, SEARCH_SITES);
  const api = apiClient(input.baseUrl, world.token);
  const steps: ScalingStep[] = [];
  let seeded = 0;
  for (const size of input.sizes) {
    const started = Date.now();
    await seedCheckins(db, world.accountId, siteIds, size - seeded);
    seeded = size;
    const seedSeconds = (Date.now() - started) / 1000;
    const counted = await queryOne<{ rows: number }>(db, sql`SELECT count(*)::int AS rows FROM person_checkins`);
    // Shapes are made per size: the deep cursor points into the rows as they are now.
    const timings = await measureShapes(db, await searchShapes(api, world, siteIds), input.samples);
    const step = { tableRows: counted?.rows ?? size, seedSeconds, timings };
    steps.push(step);
    input.onStep?.(step);
  }
  return steps;
}

const label = (rows: number) =>
  rows >= 1_000_000 ? `${(rows / 1_000_000).toFixed(1)}M` : `${Math.round(rows / 1000)}k`;

/**
 * One row per shape: p50 at each size with its ratio to that size's baseline; the growth from the smallest
 * size to the largest of that ratio (1.00: the page costs what it cost on the small table, relative to the
 * same-moment baseline, which cancels the machine's drift between steps); the plan.
 */
export function scalingRows(steps: ScalingStep[]): Array<Record<string, string | number>> {
  const first = steps[0];
  const last = steps[steps.length - 1];
  if (!first || !last) return [];
  return first.timings.map((timing, index) => {
    const row: Record<string, string | number> = { shape: timing.shape };
    for (const step of steps) {
      const at = step.timings[index];
      row[`p50 ms @${label(step.tableRows)} (÷ baseline)`] = at ? `${at.p50.toFixed(2)} (${at.ratio.toFixed(2)})` : '-';
    }
    const largest = last.timings[index];
    row[`growth ${label(first.tableRows)}→${label(last.tableRows)}`] = largest
      ? (largest.ratio / timing.ratio).toFixed(2)
      : '-';
    row.plan = [...new Set(steps.map((step) => step.timings[index]?.plan ?? '-'))].join('/');
    return row;
  });
}
