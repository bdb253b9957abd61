import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import pg from 'pg';
import { type Database, createDatabase, ensureDatabase } from '../server/src/db/database';
import { type RunningPostgres, startEmbeddedPostgres, withDatabase } from '../server/src/postgres/embeddedPostgres';
import { migrate } from '../server/src/db/migrate';
import { type Executor, queryRows } from '../server/src/db/query';
import { type World, buildWorld } from '../test/support/factories';
import { type ServerProcess, spawnServer } from '../test/support/serverProcess';
import { sql } from '../server/src/db/sql';

/** The API server's settings in every benchmark: the limiter stays on (its cost is measured) but never refuses. */
export const BENCH_SERVER_ENV = { SEED_DEMO: 'false', DB_POOL_MAX: '20', RATE_LIMIT_PER_MINUTE: '1000000000' };

export interface BenchDatabase {
  url: string;
  /** The PostgreSQL server itself (its `postgres` database), for companions that make databases of their own. */
  serverUrl: string;
  database: Database;
  close: () => Promise<void>;
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
  const database = await openBenchDatabase(serverUrl, name);
  return {
    ...database,
    async close() {
      await database.close();
      await postgres?.stop();
    },
  };
}

/** A read benchmark's API (search, plates, gate): its database, the server on it, one account's world. */
export interface BenchApi {
  database: BenchDatabase;
  server: ServerProcess;
  world: World;
  /** Ends the server, then the database. */
  stop: () => Promise<void>;
}

/** Starts the database `name`, the API on it (no demo seed, a limiter that never refuses) and one account. */
export async function startBenchApi(name: string): Promise<BenchApi> {
  const database = await startBenchDatabase(name);
  const server = await spawnServer({
    DATABASE_URL: database.url,
    SEED_DEMO: 'false',
    RATE_LIMIT_PER_MINUTE: '1000000000',
  });
  const stop = async () => {
    server.child.kill('SIGTERM');
    await server.exited;
    await database.close();
  };
  try {
    return {
      database,
      server,
      world: await buildWorld({ database: database.database, baseUrl: server.baseUrl }),
      stop,
    };
  } catch (error) {
    await stop();
    throw error;
  }
}

/** One more migrated database on a bench PostgreSQL; `close` with `drop` removes it (and its cached pages). */
export async function openBenchDatabase(
  serverUrl: string,
  name: string,
): Promise<BenchDatabase & { close: (drop?: boolean) => Promise<void> }> {
  await ensureDatabase(serverUrl, name);
  const url = withDatabase(serverUrl, name);
  const database = createDatabase({ url, poolMax: 4 });
  await migrate(url);
  return {
    url,
    serverUrl,
    database,
    async close(drop = false) {
      await database.close();
      if (!drop) return;
      const admin = new pg.Client({ connectionString: serverUrl });
      await admin.connect();
      await admin
        .query(`DROP DATABASE IF EXISTS ${admin.escapeIdentifier(name)} WITH (FORCE)`)
        .finally(() => admin.end());
    },
  };
}

/** Every site id of the world's account, after adding sites (copies of its first) until there are `count`. */
export async function siteIdsOf(database: Executor, world: World, count: number): Promise<number[]> {
  const extra = await queryRows<{ id: number }>(
    database,
    sql`INSERT INTO sites (account_id, name, checkin_config)
     SELECT ${world.accountId}, 'Site ' || g, s.checkin_config FROM sites s, generate_series(1, ${count - 2}) AS g WHERE s.id = ${world.siteId} RETURNING id`,
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
export async function timeInterleaved(
  runs: Array<() => Promise<void>>,
  count: number,
  warmup = 20,
): Promise<number[][]> {
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

/** Writes a run's results as `bench/results/<prefix>-<time>.json` (not committed, for comparing runs); returns the path. */
export async function writeResults(prefix: string, data: unknown): Promise<string> {
  await fs.mkdir('bench/results', { recursive: true });
  const file = `bench/results/${prefix}-${Date.now()}.json`;
  await fs.writeFile(file, JSON.stringify(data, null, 2));
  return file;
}

/** Runs a benchmark script's `main`: a failure is printed with its stack, and the process exits 1. */
export function runBench(name: string, main: () => Promise<void>): void {
  main().catch((error: unknown) => {
    process.stderr.write(
      `${name} failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
    );
    process.exit(1);
  });
}

/** True when the module of `moduleUrl` is the script node was started with (not imported by another). */
export function isEntryPoint(moduleUrl: string): boolean {
  const script = process.argv[1];
  return script !== undefined && pathToFileURL(path.resolve(script)).href === moduleUrl;
}

/** A number from the environment, or the default when unset or empty. */
export function envNumber(name: string, fallback: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isFinite(value) || value < 0) throw new Error(`${name} must be a non-negative number, got "${raw}"`);
  return value;
}

/** Resident and peak resident memory of a process, in MiB (Linux /proc). */
export async function memoryOf(pid: number): Promise<{ rssMiB: number; peakMiB: number }> {
  const status = await fs.readFile(`/proc/${pid}/status`, 'utf8');
  const kib = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? Number.NaN);
  return { rssMiB: kib('VmRSS') / 1024, peakMiB: kib('VmHWM') / 1024 };
}
