import pg from 'pg';
import type { Executor } from './query';
import { sql } from './sql';

// int8 ids and counts fit in a JS number for this product's lifetime (2^53); read them as numbers.
pg.types.setTypeParser(pg.types.builtins.INT8, (value: string) => Number(value));

export interface DatabaseOptions {
  url: string;
  /** Every connection the pool may open (DB_POOL_MAX); migrations, at start, open two more of their own. */
  poolMax?: number;
  /** How long a statement waits for a connection before it fails (503 UNAVAILABLE), not forever. */
  acquireTimeoutMs?: number;
  /** Startup options of every session, e.g. `-c synchronous_commit=off` for the webhook dispatcher's bookkeeping. */
  sessionOptions?: string;
}

/**
 * The process's database: `pg`'s pool for every statement (named prepared statements, one transaction
 * helper). Migrations open connections of their own while they run (db/migrate.ts).
 */
export interface Database extends Executor {
  close: () => Promise<void>;
}

const sessionSettings = (options: DatabaseOptions) => ({
  connectionTimeoutMillis: options.acquireTimeoutMs ?? 5_000,
  statement_timeout: 30_000,
  // The server enforces statement_timeout only while it runs; a frozen or partitioned database would
  // leave a query waiting forever. This client-side bound turns that into an error (503), never a hang.
  query_timeout: 40_000,
  keepAlive: true,
  idle_in_transaction_session_timeout: 60_000,
  application_name: 'gatehouse',
  ...(options.sessionOptions ? { options: options.sessionOptions } : {}),
});

/** One database handle (and its pool) per process. */
export function createDatabase(options: DatabaseOptions): Database {
  const pool = new pg.Pool({
    connectionString: options.url,
    max: Math.max(1, options.poolMax ?? 20),
    idleTimeoutMillis: 10_000,
    ...sessionSettings(options),
  });
  // A connection the server closed is an event, never an uncaught error: idle ones on the pool; checked-out
  // ones (pg-pool leaves them without a listener) fail their statement, and are not reused.
  pool.on('error', () => undefined);
  pool.on('connect', (client) => client.on('error', () => undefined));
  let closing: Promise<void> | undefined;
  return {
    pool,
    close() {
      closing ??= pool.end();
      return closing;
    },
  };
}

/** Creates the database on the server unless it exists (used for the embedded Postgres). */
export async function ensureDatabase(serverUrl: string, name: string): Promise<void> {
  const client = new pg.Client({ connectionString: serverUrl });
  await client.connect();
  try {
    const found = await client.query(sql`SELECT 1 FROM pg_database WHERE datname = ${name}`);
    if (found.rowCount === 0) await client.query(`CREATE DATABASE ${client.escapeIdentifier(name)}`);
  } finally {
    await client.end();
  }
}
