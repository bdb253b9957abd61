/**
 * A migration gets one function: run SQL (with `$1…` bind values, if any) on the migrating database; it
 * resolves to what Sequelize's `query` does (`[rows, metadata]`). `warn` tells whoever runs the migration
 * (the server's log) about data it left as it was.
 */
export interface RunSql {
  (sql: string, bind?: unknown[]): Promise<unknown>;
  warn: (message: string, fields?: Record<string, unknown>) => void;
}
export type MigrationFn = (params: { context: RunSql }) => Promise<void>;
