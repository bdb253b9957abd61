import pg from 'pg';
import { SequelizeStorage, Umzug } from 'umzug';
import { Sequelize } from 'sequelize';
import type { Logger } from '../logger';
import { migrations } from './migrations';
import type { RunSql } from './migrations/types';
import { type Executor, queryRows } from './query';
import { sql } from './sql';

// Any fixed number: instances starting together take turns migrating.
const MIGRATION_LOCK = 7_345_001;

/** How often an instance waiting for another's migrations asks for the lock again. */
const LOCK_POLL_MS = 250;

/** A migration's way to run SQL, on `client` (a connection or a pool): it answers `[rows, result]` as Sequelize's raw query does. */
export function sqlRunner(client: Pick<pg.ClientBase, 'query'>, warn: RunSql['warn']): RunSql {
  return Object.assign(
    async (text: string, bind?: unknown[]) => {
      // Of the last statement, for a text of several (pg then answers a list, whatever its types say).
      const answer: unknown = await client.query<Record<string, unknown>>(text, bind);
      const results = (Array.isArray(answer) ? answer : [answer]) as Array<pg.QueryResult<Record<string, unknown>>>;
      const last = results[results.length - 1];
      return [last?.rows ?? [], last];
    },
    { warn },
  );
}

/**
 * Applies pending migrations; instances starting at once take turns on a session lock of a connection of
 * their own, with no statement timeout (a CONCURRENTLY index takes as long as it takes). A waiting instance
 * polls for the lock: blocked in `pg_advisory_lock` it would hold a snapshot the index build waits for.
 * Sequelize is here only for umzug's record of what was applied (`schema_migrations`): one connection,
 * for the length of the migration.
 */
export async function migrate(url: string, warn: Logger['warn'] = () => undefined): Promise<string[]> {
  const lock = new pg.Client({ connectionString: url, statement_timeout: 0, application_name: 'gatehouse-migrate' });
  // A connection lost mid-migration surfaces through the statement that was running; never as a crash.
  lock.on('error', () => undefined);
  await lock.connect();
  const sequelize = new Sequelize(url, {
    dialect: 'postgres',
    dialectModule: pg,
    dialectOptions: { application_name: 'gatehouse-migrate' },
    logging: false,
    pool: { max: 1, min: 0 },
  });
  try {
    while (
      !(await lock.query<{ locked: boolean }>(sql`SELECT pg_try_advisory_lock(${MIGRATION_LOCK}) AS locked`)).rows[0]
        ?.locked
    ) {
      await new Promise((resolve) => setTimeout(resolve, LOCK_POLL_MS));
    }
    const run = sqlRunner(lock, warn);
    const umzug = new Umzug({
      migrations: migrations.map(({ name, up }) => ({ name, up })),
      // A function here is a context factory: it returns the RunSql each migration gets.
      context: () => run,
      storage: new SequelizeStorage({ sequelize, tableName: 'schema_migrations' }),
      logger: undefined,
    });
    const applied = await umzug.up();
    return applied.map((migration) => migration.name);
  } finally {
    await sequelize.close();
    await lock.end();
  }
}

/** True when every known migration is recorded as applied. */
export async function migrationsApplied(db: Executor): Promise<boolean> {
  const rows = await queryRows<{ name: string }>(db, sql`SELECT name FROM schema_migrations`);
  const done = new Set(rows.map((row) => row.name));
  return migrations.every((migration) => done.has(migration.name));
}
