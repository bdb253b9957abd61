import { type Executor, queryOne, queryRows } from '../db/query';
import { type Sql, empty, sql } from '../db/sql';
import { type Position, isAfter } from '../live/position';

/** One published change as stored (migration 0030). */
export interface LiveEventRow {
  position: Position;
  accountId: number;
  siteId: number | null;
  type: string;
  data: Record<string, unknown>;
}

interface RawRow {
  tx: string;
  seq: number;
  account_id: number;
  site_id: number | null;
  type: string;
  data: Record<string, unknown>;
}

const fromRaw = (row: RawRow): LiveEventRow => ({
  position: { tx: Number(row.tx), seq: row.seq },
  accountId: row.account_id,
  siteId: row.site_id,
  type: row.type,
  data: row.data,
});

const positionOf = (row: { tx: string; seq: number } | undefined): Position | undefined =>
  row ? { tx: Number(row.tx), seq: row.seq } : undefined;

/**
 * Only rows of transactions older than every one still running: what has been read is then a prefix of
 * the order that no later commit can add to (a transaction still running has a larger id than these).
 */
const STABLE = sql`tx_id < pg_snapshot_xmin(pg_current_snapshot())`;
const after = (at: Position) => sql`(tx_id, seq) > (${String(at.tx)}::xid8, ${at.seq}::bigint)`;

/** The stable events after `at`, of every account, in order: what an instance's reader dispatches. */
export async function readStableEvents(db: Executor, at: Position, limit: number): Promise<LiveEventRow[]> {
  const rows = await queryRows<RawRow>(
    db,
    sql`SELECT tx_id::text AS tx, seq, account_id, site_id, type, data FROM live_events
        WHERE ${after(at)} AND ${STABLE} ORDER BY tx_id, seq LIMIT ${limit}`,
    { prepare: true },
  );
  return rows.map(fromRaw);
}

interface BoundsRow {
  end_tx: string | null;
  end_seq: number | null;
  horizon_tx: string;
  horizon_seq: number;
}

/**
 * The newest stable position (where a reader starting now begins), and the horizon: every position at or
 * below it may have been pruned. One row, read in the snapshot of the statement it is part of.
 */
const BOUNDS = sql`SELECT e.tx AS end_tx, e.seq AS end_seq, h.tx_id::text AS horizon_tx, h.seq AS horizon_seq
  FROM live_event_horizon h
  LEFT JOIN LATERAL (
    SELECT tx_id::text AS tx, seq FROM live_events WHERE ${STABLE} ORDER BY tx_id DESC, seq DESC LIMIT 1) e ON true`;

function boundsOf(row: BoundsRow): { end: Position; horizon: Position } {
  const horizon = { tx: Number(row.horizon_tx), seq: row.horizon_seq };
  const newest =
    row.end_tx === null || row.end_seq === null ? undefined : positionOf({ tx: row.end_tx, seq: row.end_seq });
  return { horizon, end: newest && isAfter(newest, horizon) ? newest : horizon };
}

/** Where a reader starting now begins: every stable event at or before it is history. */
export async function stableEnd(db: Executor): Promise<Position> {
  const row = await queryOne<BoundsRow>(db, BOUNDS);
  if (!row) throw new Error('live_event_horizon has no row');
  return boundsOf(row).end;
}

export type Replay =
  | { kind: 'events'; events: LiveEventRow[] }
  /** The position is older than the window (pruned since), or one this database never had. */
  | { kind: 'expired' }
  /** More happened since it than a replay may carry. */
  | { kind: 'behind' };

/**
 * The account's stable events after `from` that concern `siteIds` (null: every site) or the whole account,
 * at most `limit`: a resuming client's replay. One statement, so the horizon and the newest position it is
 * checked against are those of the snapshot the events were read in: a prune committing meanwhile cannot
 * take events from under it.
 */
export async function replayEvents(
  db: Executor,
  input: { accountId: number; siteIds: readonly number[] | null; from: Position; limit: number },
): Promise<Replay> {
  const { accountId, siteIds, from, limit } = input;
  const sites: Sql = siteIds === null ? empty : sql`AND (site_id IS NULL OR site_id = ANY(${[...siteIds]}::integer[]))`;
  const rows = await queryRows<BoundsRow & Partial<RawRow>>(
    db,
    sql`WITH page AS (
          SELECT tx_id::text AS tx, seq, account_id, site_id, type, data FROM live_events
          WHERE account_id = ${accountId} AND ${after(from)} AND ${STABLE} ${sites}
          ORDER BY tx_id, seq LIMIT ${limit + 1})
        SELECT b.*, p.* FROM (${BOUNDS}) b LEFT JOIN page p ON true ORDER BY p.tx::xid8, p.seq`,
  );
  const first = rows[0];
  if (!first) throw new Error('live_event_horizon has no row');
  const { horizon, end } = boundsOf(first);
  if (isAfter(horizon, from) || isAfter(from, end)) return { kind: 'expired' };
  const events = rows.filter((row): row is BoundsRow & RawRow => row.tx !== null && row.tx !== undefined);
  if (events.length > limit) return { kind: 'behind' };
  return { kind: 'events', events: events.map(fromRaw) };
}
