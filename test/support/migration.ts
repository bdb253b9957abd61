import type { Sequelize } from 'sequelize';
import type { MigrationFn, RunSql } from '../../server/src/db/migrations/types';

export interface MigrationWarning {
  message: string;
  fields?: Record<string, unknown>;
}

/** Runs one migration's `up` on a test database as `migrate` would, and returns what it warned about. */
export async function runMigration(sequelize: Sequelize, up: MigrationFn): Promise<MigrationWarning[]> {
  const warnings: MigrationWarning[] = [];
  const sql: RunSql = Object.assign((text: string, bind?: unknown[]) => sequelize.query(text, bind ? { bind } : {}), {
    warn: (message: string, fields?: Record<string, unknown>) => void warnings.push({ message, fields }),
  });
  await up({ context: sql });
  return warnings;
}
