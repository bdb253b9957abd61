import os from 'node:os';
import path from 'node:path';
import type { Sequelize } from 'sequelize';
import { createDatabase, ensureDatabase } from '../server/src/db/database';
import { type RunningPostgres, startEmbeddedPostgres, withDatabase } from '../server/src/db/embeddedPostgres';
import { migrate } from '../server/src/db/migrate';
import { queryRows } from '../server/src/db/query';
import type { World } from '../test/support/factories';

export interface BenchDatabase {
  url: string;
  sequelize: Sequelize;
  close(): Promise<void>;
}

/** A throwaway embedded PostgreSQL with real durability settings (or DATABASE_URL's server), migrated. */
export async function startBenchDatabase(name: string): Promise<BenchDatabase> {
  let postgres: RunningPostgres | undefined;
  let serverUrl = process.env.DATABASE_URL;
  if (!serverUrl) {
    postgres = await startEmbeddedPostgres({
      dataDir: path.join(os.tmpdir(), `gatehouse-bench-${process.pid}`),
      ephemeral: true,
      flags: ['-c', 'shared_buffers=256MB'],
    });
    serverUrl = postgres.url;
  }
  await ensureDatabase(serverUrl, name);
  const url = withDatabase(serverUrl, name);
  const sequelize = createDatabase({ url, poolMax: 4 });
  await migrate(sequelize, url);
  return {
    url,
    sequelize,
    async close() {
      await sequelize.close();
      await postgres?.stop();
    },
  };
}

/** Every site id of the world's account, after adding sites (copies of its first) until there are `count`. */
export async function siteIdsOf(sequelize: Sequelize, world: World, count: number): Promise<number[]> {
  const extra = await queryRows<{ id: number }>(
    { sequelize },
    `INSERT INTO sites (account_id, name, checkin_config)
     SELECT $1, 'Site ' || g, s.checkin_config FROM sites s, generate_series(1, $3) AS g WHERE s.id = $2 RETURNING id`,
    [world.accountId, world.siteId, count - 2],
  );
  return [world.siteId, world.otherSiteId, ...extra.map((row) => row.id)];
}

/** Median and 95th percentile of a list of milliseconds. */
export function percentiles(samples: number[]): { p50: number; p95: number; p99: number } {
  const sorted = [...samples].sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? Number.NaN;
  return { p50: at(0.5), p95: at(0.95), p99: at(0.99) };
}

/** Times `run` sequentially `count` times after `warmup` untimed runs; milliseconds each. */
export async function timeSequential(run: () => Promise<void>, count: number, warmup = 20): Promise<number[]> {
  for (let i = 0; i < warmup; i += 1) await run();
  const samples: number[] = [];
  for (let i = 0; i < count; i += 1) {
    const start = process.hrtime.bigint();
    await run();
    samples.push(Number(process.hrtime.bigint() - start) / 1e6);
  }
  return samples;
}

/**
 * Times several runs round-robin, `count` samples each after `warmup` untimed rounds; milliseconds per run.
 * Interleaving spreads the drift of a busy machine over all of them alike, so their ratios hold.
 */
export async function timeInterleaved(runs: Array<() => Promise<void>>, count: number, warmup = 20): Promise<number[][]> {
  const samples = runs.map((): number[] => []);
  for (let round = 0; round < warmup + count; round += 1) {
    for (const [index, run] of runs.entries()) {
      const start = process.hrtime.bigint();
      await run();
      if (round >= warmup) samples[index]?.push(Number(process.hrtime.bigint() - start) / 1e6);
    }
  }
  return samples;
}

/** Prints rows as an aligned text table. */
export function printTable(rows: Array<Record<string, string | number>>): void {
  const first = rows[0];
  if (!first) return;
  const columns = Object.keys(first);
  const width = (column: string) => Math.max(column.length, ...rows.map((row) => String(row[column]).length));
  const line = (cells: string[]) => cells.map((cell, i) => cell.padEnd(width(columns[i] ?? ''))).join('  ');
  process.stdout.write(`${line(columns)}\n${line(columns.map((column) => '-'.repeat(width(column))))}\n`);
  for (const row of rows) process.stdout.write(`${line(columns.map((column) => String(row[column])))}\n`);
}
