import pg from 'pg';
import type { Sequelize } from 'sequelize';
import { SequelizeStorage, Umzug } from 'umzug';
import type { Logger } from '../logger';
import { migrations } from './migrations';
import type { RunSql } from './migrations/types';

// Any fixed number: instances starting together take turns migrating.
const MIGRATION_LOCK = 7_345_001;

/**
 * Applies pending migrations; instances starting at once take turns (a session lock on its own connection).
 * `warn` hears about data a migration left as it was (the server passes its log).
 */
export async function migrate(sequelize: Sequelize, url: string, warn: Logger['warn'] = () => undefined): Promise<string[]> {
  const run: RunSql = Object.assign((sql: string, bind?: unknown[]) => sequelize.query(sql, bind ? { bind } : {}), { warn });
  const umzug = new Umzug({
    migrations: migrations.map(({ name, up }) => ({ name, up })),
    // A function here is a context factory: it returns the RunSql each migration gets.
    context: () => run,
    storage: new SequelizeStorage({ sequelize, tableName: 'schema_migrations' }),
    logger: undefined,
  });
  const lock = new pg.Client({ connectionString: url });
  await lock.connect();
  try {
    await lock.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK]);
    const applied = await umzug.up();
    return applied.map((migration) => migration.name);
  } finally {
    await lock.end();
  }
}

/** True when every known migration is recorded as applied. */
export async function migrationsApplied(sequelize: Sequelize): Promise<boolean> {
  const [rows] = await sequelize.query('SELECT name FROM schema_migrations');
  const done = new Set((rows as Array<{ name: string }>).map((row) => row.name));
  return migrations.every((migration) => done.has(migration.name));
}
