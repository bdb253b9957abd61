import type pg from 'pg';
import { type Executor, queryRows } from './query';
import { sql } from './sql';

/** Ids drawn from a sequence at a time; a new block is fetched in the background once this few are left. */
const BLOCK = 32;
const LOW = 8;

class Block {
  private ids: number[] = [];
  private fetching: Promise<void> | undefined;

  constructor(
    private readonly table: string,
    private readonly column: string,
  ) {}

  async next(db: Executor): Promise<number> {
    // Empty: wait for ids (a failure is the caller's). Low: refill meanwhile (a failure is left to a later call).
    while (this.ids.length === 0) await this.refill(db);
    if (this.ids.length <= LOW) this.refill(db).catch(() => undefined);
    const id = this.ids.shift();
    if (id === undefined) throw new Error('an id block ran dry');
    return id;
  }

  /** One fetch at a time, so blocks are appended in the order the sequence gave them. */
  private refill(db: Executor): Promise<void> {
    this.fetching ??= this.fetch(db).finally(() => {
      this.fetching = undefined;
    });
    return this.fetching;
  }

  private async fetch(db: Executor): Promise<void> {
    // On the pool, never in the caller's transaction: the ids outlive it whatever it decides.
    const rows = await queryRows<{ id: number }>(
      { pool: db.pool },
      sql`SELECT nextval(pg_get_serial_sequence(${this.table}, ${this.column})) AS id FROM generate_series(1, ${BLOCK})`,
      { prepare: true },
    );
    this.ids.push(...rows.map((row) => row.id).sort((a, b) => a - b));
  }
}

const blocks = new WeakMap<pg.Pool, Map<string, Block>>();

/**
 * A new id for `table`'s identity `column`, taken from a block this process drew beforehand, so a
 * create needs no round trip of its own for its id (docs/operations.md, The write path). Ids therefore go
 * up in the order this process hands them out; processes sharing a database interleave by blocks, and the
 * ids left in a block when a process stops are never used (ids were never promised to be gapless).
 */
export async function nextId(db: Executor, table: string, column = 'id'): Promise<number> {
  let perPool = blocks.get(db.pool);
  if (!perPool) blocks.set(db.pool, (perPool = new Map<string, Block>()));
  const name = `${table}.${column}`;
  let block = perPool.get(name);
  if (!block) perPool.set(name, (block = new Block(table, column)));
  return block.next(db);
}
