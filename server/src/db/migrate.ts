import pg from 'pg';
import type { Sequelize } from 'sequelize';
import { SequelizeStorage, Umzug } from 'umzug';
import { migrations } from './migrations';

// Any fixed number: instances starting together take turns migrating.
const MIGRATION_LOCK = 7_345_001;

/** Applies pending migrations; instances starting at once take turns (a session lock on its own connection). */
export async function migrate(sequelize: Sequelize, url: string): Promise<string[]> {
  const umzug = new Umzug({
    migrations: migrations.map(({ name, up }) => ({ name, up })),
    // A function here is a context factory: it returns the RunSql each migration gets.
    context: () => (sql: string) => sequelize.query(sql),
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
