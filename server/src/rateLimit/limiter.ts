import { type Executor, queryRows } from '../db/query';
import { sql } from '../db/sql';

const WINDOW_MS = 60_000;
const SYNC_EVERY_MS = 1_000;

interface TokenWindow {
  windowStart: number;
  /** The account-wide count of this window as the database last told us (all instances). */
  synced: number;
  /** Requests counted here and not yet added to the database. */
  pending: number;
}

export interface RateDecision {
  allowed: boolean;
  limit: number;
  remaining: number;
  /** Seconds until the window resets. */
  resetSeconds: number;
}

/**
 * Per-token fixed-window limit shared by every instance through PostgreSQL, without a write per request:
 * each instance counts locally and, once a second, adds its counts to the token's window row and reads
 * back the total. A request is refused once this instance's view of the total reaches the limit, so
 * N instances can overshoot by at most what they admit within one sync interval (docs/operations.md).
 */
export class RateLimiter {
  private readonly windows = new Map<number, TokenWindow>();
  private timer: NodeJS.Timeout | undefined;
  private syncing: Promise<void> = Promise.resolve();

  constructor(
    private readonly db: Executor,
    readonly limit: number,
    /** The clock the windows are reckoned by: the same one the requests are counted with (`consume`'s `now`). */
    private readonly clock: () => Date = () => new Date(),
  ) {}

  /** Counts one request of a token at `now` and says whether it may proceed. */
  consume(tokenId: number, now: Date): RateDecision {
    const windowStart = Math.floor(now.getTime() / WINDOW_MS) * WINDOW_MS;
    let window = this.windows.get(tokenId);
    if (!window || window.windowStart !== windowStart) {
      window = { windowStart, synced: 0, pending: 0 };
      this.windows.set(tokenId, window);
    }
    const resetSeconds = Math.max(1, Math.ceil((windowStart + WINDOW_MS - now.getTime()) / 1000));
    const used = window.synced + window.pending;
    if (used >= this.limit) return { allowed: false, limit: this.limit, remaining: 0, resetSeconds };
    window.pending += 1;
    this.timer ??= setInterval(() => void this.sync(), SYNC_EVERY_MS).unref();
    return { allowed: true, limit: this.limit, remaining: this.limit - used - 1, resetSeconds };
  }

  /** Adds local counts to the shared windows and learns the totals (one statement for all tokens). */
  sync(): Promise<void> {
    this.syncing = this.syncing.then(() => this.flush()).catch(() => undefined);
    return this.syncing;
  }

  private async flush(): Promise<void> {
    // Every token active in its current window: add what we counted (maybe 0) and learn what the others did.
    const current = Math.floor(this.clock().getTime() / WINDOW_MS) * WINDOW_MS;
    const batch = [...this.windows].filter(([, window]) => window.pending > 0 || window.windowStart >= current);
    if (batch.length === 0) return;
    const flushed = new Map(batch.map(([tokenId, window]) => [tokenId, { ...window }]));
    const rows = await queryRows<{ token_id: number; count: number }>(
      this.db,
      sql`INSERT INTO rate_limit_windows (token_id, window_start, count)
          SELECT * FROM unnest(${batch.map(([tokenId]) => tokenId)}::int[],
                               ${batch.map(([, window]) => new Date(window.windowStart))}::timestamptz[],
                               ${batch.map(([, window]) => window.pending)}::int[])
          ON CONFLICT (token_id, window_start) DO UPDATE SET count = rate_limit_windows.count + EXCLUDED.count
          RETURNING token_id, count`,
    );
    for (const row of rows) {
      const sent = flushed.get(row.token_id);
      const window = this.windows.get(row.token_id);
      if (!sent || !window || window.windowStart !== sent.windowStart) continue;
      window.pending -= sent.pending;
      window.synced = row.count;
    }
    const expired = new Date(this.clock().getTime() - 2 * WINDOW_MS);
    for (const [tokenId, window] of this.windows)
      if (window.windowStart < expired.getTime()) this.windows.delete(tokenId);
    await queryRows(this.db, sql`DELETE FROM rate_limit_windows WHERE window_start < ${expired}`);
  }

  /** Stops the sync timer after a last flush. */
  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
    await this.sync();
  }
}
