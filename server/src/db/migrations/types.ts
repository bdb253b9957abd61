/** A migration gets one function: run SQL on the migrating connection. */
export type RunSql = (sql: string) => Promise<unknown>;
export type MigrationFn = (params: { context: RunSql }) => Promise<void>;
