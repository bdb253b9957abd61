import { createHash } from 'node:crypto';
import type pg from 'pg';
import { isDatabaseUnavailable } from './unavailable';
import type { Sql } from './sql';

/**
 * Where a statement runs: the pool, or (`client`) the connection of the transaction it belongs to. The
 * process's `Database` is an Executor for the pool; `inTransaction` hands its work one for its connection.
 */
export interface Executor {
  readonly pool: pg.Pool;
  readonly client?: pg.PoolClient;
  /** False once the transaction ended: its connection may by then be another request's. */
  readonly open?: () => boolean;
}

/**
 * How a statement is sent. `prepare`: as a named prepared statement, which PostgreSQL parses and plans once
 * per connection: for the hot paths' fixed texts whose plan does not depend much on the values (lookups by
 * key, writes). A search stays unprepared, planned for its values every time.
 */
export interface SendOptions {
  prepare?: boolean;
}

/** One name per distinct text, for the whole process (pg refuses one name for two texts on a connection). */
const names = new Map<string, string>();
/** Bounds the statements each connection keeps, should a caller prepare texts built from values. */
const MAX_PREPARED = 256;

/** The prepared statement name of `text`: a hash of it, so every copy of this module names a text alike. */
function nameOf(text: string): string | undefined {
  const known = names.get(text);
  if (known !== undefined || names.size >= MAX_PREPARED) return known;
  const name = `gh_${createHash('sha256').update(text).digest('base64url').slice(0, 22)}`;
  names.set(text, name);
  return name;
}

/** What a statement observer sees: the statement as sent (for the benchmark's database ceiling). */
export interface SentStatement {
  text: string;
  name: string | undefined;
  values: unknown[];
}

const observers = new WeakMap<pg.Pool, (statement: SentStatement) => void>();

/** Calls `observer` with every statement sent through this module on `db`'s pool; returns the way to stop. */
export function observeStatements(db: Executor, observer: (statement: SentStatement) => void): () => void {
  observers.set(db.pool, observer);
  return () => observers.delete(db.pool);
}

async function send<T extends object>(client: pg.ClientBase, statement: SentStatement): Promise<T[]> {
  const result = await client.query<T>(statement);
  return result.rows;
}

/** Runs one statement (SELECT, or a write with RETURNING) and returns its rows. */
export async function queryRows<T extends object>(
  db: Executor,
  statement: Sql,
  options: SendOptions = {},
): Promise<T[]> {
  const text = statement.text;
  const sent: SentStatement = { text, name: options.prepare ? nameOf(text) : undefined, values: statement.values };
  observers.get(db.pool)?.(sent);
  if (db.client) {
    if (db.open && !db.open()) throw new Error('the transaction has already ended; the statement was not sent');
    return send<T>(db.client, sent);
  }
  const client = await db.pool.connect();
  let broken = false;
  try {
    return await send<T>(client, sent);
  } catch (error) {
    broken = isDatabaseUnavailable(error);
    throw error;
  } finally {
    // A connection that failed or timed out mid-query is not reused.
    client.release(broken);
  }
}

/** The first row of a statement, or undefined. */
export async function queryOne<T extends object>(
  db: Executor,
  statement: Sql,
  options: SendOptions = {},
): Promise<T | undefined> {
  const rows = await queryRows<T>(db, statement, options);
  return rows[0];
}

/**
 * Runs `work` in one transaction on one connection: committed when it resolves, rolled back when it throws.
 * Inside a transaction already, `work` joins it.
 */
export async function inTransaction<T>(db: Executor, work: (tx: Executor) => Promise<T>): Promise<T> {
  if (db.client) return work(db);
  const client = await db.pool.connect();
  let open = true;
  let broken = false;
  try {
    await client.query('BEGIN');
    const result = await work({ pool: db.pool, client, open: () => open });
    await client.query('COMMIT');
    return result;
  } catch (error) {
    broken = isDatabaseUnavailable(error);
    if (!broken) await client.query('ROLLBACK').catch(() => (broken = true));
    throw error;
  } finally {
    open = false;
    client.release(broken);
  }
}
