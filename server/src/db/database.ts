import pg from 'pg';
import { Sequelize } from 'sequelize';

// int8 ids and counts fit in a JS number for this product's lifetime (2^53); read them as numbers.
pg.types.setTypeParser(pg.types.builtins.INT8, (value: string) => Number(value));

export interface DatabaseOptions {
  url: string;
  poolMax?: number;
  /** Fail fast instead of queueing forever when Postgres is gone (CONTRACT §2: 503 UNAVAILABLE). */
  acquireTimeoutMs?: number;
  /** Startup options of every session, e.g. `-c synchronous_commit=off` for the webhook dispatcher's bookkeeping. */
  sessionOptions?: string;
}

/** One Sequelize instance (and its pg pool) per process. */
export function createDatabase(options: DatabaseOptions): Sequelize {
  return new Sequelize(options.url, {
    dialect: 'postgres',
    dialectModule: pg,
    logging: false,
    benchmark: false,
    pool: {
      max: options.poolMax ?? 20,
      min: 0,
      idle: 10_000,
      acquire: options.acquireTimeoutMs ?? 5_000,
      evict: 1_000,
    },
    dialectOptions: {
      connectionTimeoutMillis: 5_000,
      statement_timeout: 30_000,
      // The server enforces statement_timeout only while it runs; a frozen or partitioned database would
      // leave a query waiting forever. This client-side bound turns that into an error (503), never a hang.
      query_timeout: 40_000,
      keepAlive: true,
      idle_in_transaction_session_timeout: 60_000,
      application_name: 'gatehouse',
      ...(options.sessionOptions ? { options: options.sessionOptions } : {}),
    },
    define: { underscored: true, timestamps: true },
  });
}

/** Creates the database on the server unless it exists (used for the embedded Postgres). */
export async function ensureDatabase(serverUrl: string, name: string): Promise<void> {
  const client = new pg.Client({ connectionString: serverUrl });
  await client.connect();
  try {
    const found = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
    if (found.rowCount === 0) await client.query(`CREATE DATABASE ${client.escapeIdentifier(name)}`);
  } finally {
    await client.end();
  }
}
