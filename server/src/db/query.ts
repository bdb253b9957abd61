import { createHash } from 'node:crypto';
import type pg from 'pg';
import type { Sequelize, Transaction } from 'sequelize';
import { isDatabaseUnavailable } from '../errors/classify';
import { Sql } from './sql';

/** Where a statement runs: the pool, or the transaction of the current command. */
export interface Executor {
  sequelize: Sequelize;
  transaction?: Transaction;
}

/**
 * A statement PostgreSQL parses and plans once per connection (a named prepared statement), for the hot
 * paths: planning is about half of the database's work for a create-sized statement. Only for fixed texts
 * whose plan does not depend much on the values (lookups by key, writes); a search stays a plain string,
 * planned for its values every time.
 */
export interface Prepared {
  readonly text: string;
  /** Undefined past the registry's bound: the text then runs unnamed. */
  readonly name: string | undefined;
}

export type Statement = string | Prepared | Sql;

/** One name per distinct text, for the whole process (pg refuses one name for two texts on a connection). */
const registry = new Map<string, Prepared>();
/** Bounds the statements each connection keeps, should a caller prepare texts built from values. */
const MAX_PREPARED = 256;

/**
 * The prepared statement of `text` (the same object for the same text, so this may run per request). Its
 * name is a hash of the text, so every copy of this module names a text alike.
 */
export function prepared(text: string): Prepared {
  const known = registry.get(text);
  if (known) return known;
  if (registry.size >= MAX_PREPARED) return { text, name: undefined };
  const statement: Prepared = { text, name: `gh_${createHash('sha256').update(text).digest('base64url').slice(0, 22)}` };
  registry.set(text, statement);
  return statement;
}

/** What a statement observer sees: the statement as sent (for the benchmark's database ceiling). */
export interface SentStatement {
  text: string;
  name: string | undefined;
  values: unknown[];
}

const observers = new WeakMap<Sequelize, (statement: SentStatement) => void>();

/** Calls `observer` with every statement sent through this module on `sequelize`; returns the way to stop. */
export function observeStatements(sequelize: Sequelize, observer: (statement: SentStatement) => void): () => void {
  observers.set(sequelize, observer);
  return () => observers.delete(sequelize);
}

/** The pg client behind a pooled Sequelize connection; `_invalid` is how its pool learns to drop it. */
type PooledClient = pg.ClientBase & { _invalid?: boolean };

/** Sequelize keeps a transaction's connection on it (not in its typings). */
const connectionOf = (transaction: Transaction): PooledClient => (transaction as unknown as { connection: PooledClient }).connection;

async function send<T extends object>(client: PooledClient, text: string, name: string | undefined, values: unknown[]): Promise<T[]> {
  try {
    const result = await client.query<T>({ text, name, values });
    return result.rows;
  } catch (error) {
    // A connection that failed or timed out mid-query is not reused (the same rule as Sequelize's own queries).
    if (isDatabaseUnavailable(error)) client._invalid = true;
    throw error;
  }
}

/**
 * Runs one parameterized statement ($1, $2, …) and returns its rows (SELECT or … RETURNING): straight on the
 * pool's pg client (Sequelize's query pipeline costs a tenth of a millisecond a statement, and cannot prepare).
 */
export async function queryRows<T extends object>(db: Executor, sql: Statement, bind: unknown[] = []): Promise<T[]> {
  if (sql instanceof Sql) return queryRows<T>(db, sql.text, sql.values);
  const { text, name } = typeof sql === 'string' ? { text: sql, name: undefined } : sql;
  observers.get(db.sequelize)?.({ text, name, values: bind });
  if (db.transaction) {
    // Sequelize leaves the connection on a finished transaction, by then another request's: refuse.
    const { finished } = db.transaction as unknown as { finished?: string };
    if (finished) throw new Error(`the transaction has already ended (${finished}); the statement was not sent`);
    return send<T>(connectionOf(db.transaction), text, name, bind);
  }
  const manager = db.sequelize.connectionManager;
  const client = (await manager.getConnection({ type: 'write' })) as PooledClient;
  try {
    return await send<T>(client, text, name, bind);
  } finally {
    manager.releaseConnection(client);
  }
}

/** The first row of a statement, or undefined. */
export async function queryOne<T extends object>(db: Executor, sql: Statement, bind: unknown[] = []): Promise<T | undefined> {
  const rows = await queryRows<T>(db, sql, bind);
  return rows[0];
}
