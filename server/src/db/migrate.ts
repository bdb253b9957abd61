import pg from 'pg';
import { SequelizeStorage, Umzug } from 'umzug';
import type { Logger } from '../logger';
import type { Database } from './database';
import { migrations } from './migrations';
import type { RunSql } from './migrations/types';
import { type Executor, queryRows } from './query';
import { sql } from './sql';

// Any fixed number: instances starting together take turns migrating.
const MIGRATION_LOCK = 7_345_001;

/** How often an instance waiting for another's migrations asks for the lock again. */
const LOCK_POLL_MS = 250;

/**
 * Applies pending migrations; instances starting at once take turns on a session lock of a connection of
 * their own, with no statement timeout (a CONCURRENTLY index takes as long as it takes). A waiting instance
 * polls for the lock: blocked in `pg_advisory_lock` it would hold a snapshot the index build waits for.
 */
export async function migrate(
  database: Pick<Database, 'sequelize'>,
  url: string,
  warn: Logger['warn'] = () => undefined,
): Promise<string[]> {
  const lock = new pg.Client({ connectionString: url, statement_timeout: 0, application_name: 'gatehouse-migrate' });
  // A connection lost mid-migration surfaces through the statement that was running; never as a crash.
  lock.on('error', () => undefined);
  await lock.connect();
  try {
    while (
      !(await lock.query<{ locked: boolean }>(sql`SELECT pg_try_advisory_lock(${MIGRATION_LOCK}) AS locked`)).rows[0]
        ?.locked
    ) {
      await new Promise((resolve) => setTimeout(resolve, LOCK_POLL_MS));
    }
    const run: RunSql = Object.assign(
      async (sql: string, bind?: unknown[]) => {
        // As Sequelize's raw query answers: [rows, result] (of the last statement, for a text of several).
        const answer: pg.QueryResult | pg.QueryResult[] = await lock.query(sql, bind);
        const last = Array.isArray(answer) ? answer[answer.length - 1] : answer;
        return [last?.rows ?? [], last];
      },
      { warn },
    );
    const umzug = new Umzug({
      migrations: migrations.map(({ name, up }) => ({ name, up })),
      // A function here is a context factory: it returns the RunSql each migration gets.
      context: () => run,
      storage: new SequelizeStorage({ sequelize: database.sequelize, tableName: 'schema_migrations' }),
      logger: undefined,
    });
    const applied = await umzug.up();
    return applied.map((migration) => migration.name);
  } finally {
    await lock.end();
  }
}

/** True when every known migration is recorded as applied. */
export async function migrationsApplied(db: Executor): Promise<boolean> {
  const rows = await queryRows<{ name: string }>(db, sql`SELECT name FROM schema_migrations`);
  const done = new Set(rows.map((row) => row.name));
  return migrations.every((migration) => done.has(migration.name));
}
