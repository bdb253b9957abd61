import { sqlRunner } from '../../server/src/db/migrate';
import type { Executor } from '../../server/src/db/query';
import type { MigrationFn } from '../../server/src/db/migrations/types';

export interface MigrationWarning {
  message: string;
  fields?: Record<string, unknown>;
}

/** Runs one migration's `up` on a test database as `migrate` would, and returns what it warned about. */
export async function runMigration(database: Executor, up: MigrationFn): Promise<MigrationWarning[]> {
  const warnings: MigrationWarning[] = [];
  await up({ context: sqlRunner(database.pool, (message, fields) => void warnings.push({ message, fields })) });
  return warnings;
}
