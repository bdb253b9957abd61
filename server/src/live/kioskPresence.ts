import { type Executor, queryRows } from '../db/query';
import { sql } from '../db/sql';
import type { Logger } from '../logger';

export interface KioskPresenceOptions {
  pool: Executor;
  log: Logger;
  /** How often a kiosk whose stream stays open is marked seen again (EVENTS_KIOSK_SEEN_SECONDS). */
  seenEveryMs: number;
  clock?: () => Date;
}

interface Open {
  accountId: number;
  tokenId: number;
  /** Its streams on this instance (two windows of one kiosk: two). */
  streams: number;
  /** When it was last written as seen; 0: not yet. */
  writtenAt: number;
}

/** Rows per statement: one statement's arrays stay small however many kiosks an instance holds. */
const BATCH = 2_000;
/** The longest a stream that opens or closes waits before its kiosk's last seen is written. */
const MAX_TICK_MS = 5_000;

/**
 * A kiosk whose event stream is open is seen (docs/event-stream-clients.md, Heartbeats): this instance marks
 * the kiosks of its open streams seen, in batches, one statement per tick for all of them: when a stream
 * opens or closes, and every `seenEveryMs` while it stays open, never a write per stream or per comment.
 * So the Kiosks page's Last seen stays within about a minute for a kiosk that sends no heartbeat, and ages
 * from the moment its stream closed.
 */
export class KioskPresence {
  private readonly open = new Map<string, Open>();
  /** Kiosks to write at the next tick with the time they were seen (opened, or closed: the stream's end). */
  private readonly due = new Map<string, { accountId: number; tokenId: number; at: Date }>();
  private readonly tickMs: number;
  private readonly clock: () => Date;
  private timer: NodeJS.Timeout | undefined;
  private writing: Promise<void> | undefined;
  private failing = false;

  constructor(private readonly options: KioskPresenceOptions) {
    this.tickMs = Math.min(MAX_TICK_MS, Math.max(100, options.seenEveryMs / 2));
    this.clock = options.clock ?? (() => new Date());
  }

  /** A kiosk token's stream opened: its kiosk is seen until the returned function says the stream ended. */
  track(accountId: number, tokenId: number): () => void {
    const key = `${accountId}:${tokenId}`;
    const known = this.open.get(key);
    if (known) known.streams += 1;
    else this.open.set(key, { accountId, tokenId, streams: 1, writtenAt: 0 });
    this.due.set(key, { accountId, tokenId, at: this.clock() });
    this.timer ??= setInterval(() => this.tick(), this.tickMs).unref();
    let ended = false;
    return () => {
      if (ended) return;
      ended = true;
      const entry = this.open.get(key);
      if (!entry) return;
      entry.streams -= 1;
      if (entry.streams > 0) return;
      this.open.delete(key);
      this.due.set(key, { accountId, tokenId, at: this.clock() });
    };
  }

  /** One write at a time: a tick while the last write runs leaves its kiosks due for the next. */
  private tick(): void {
    if (this.writing) return;
    const now = this.clock();
    for (const [key, entry] of this.open) {
      if (now.getTime() - entry.writtenAt >= this.options.seenEveryMs && !this.due.has(key))
        this.due.set(key, { accountId: entry.accountId, tokenId: entry.tokenId, at: now });
    }
    if (this.due.size === 0) {
      if (this.open.size === 0) {
        clearInterval(this.timer);
        this.timer = undefined;
      }
      return;
    }
    const batch = [...this.due.values()];
    this.due.clear();
    for (const seen of batch) {
      const entry = this.open.get(`${seen.accountId}:${seen.tokenId}`);
      if (entry) entry.writtenAt = now.getTime();
    }
    this.writing = this.write(batch).finally(() => (this.writing = undefined));
  }

  private async write(batch: Array<{ accountId: number; tokenId: number; at: Date }>): Promise<void> {
    try {
      for (let start = 0; start < batch.length; start += BATCH) {
        const rows = batch.slice(start, start + BATCH);
        // Never back in time: a heartbeat written meanwhile may be later than a stream's opening.
        await queryRows(
          this.options.pool,
          sql`UPDATE kiosks k SET last_seen_at = seen.at
              FROM unnest(${rows.map((row) => row.accountId)}::int[], ${rows.map((row) => row.tokenId)}::int[],
                          ${rows.map((row) => row.at)}::timestamptz[]) AS seen(account_id, token_id, at)
              WHERE k.account_id = seen.account_id AND k.token_id = seen.token_id AND k.revoked_at IS NULL
                AND (k.last_seen_at IS NULL OR k.last_seen_at < seen.at)`,
        );
      }
      this.failing = false;
    } catch (error) {
      // The database away: these kiosks are written again at their next period (said once, not every tick).
      if (!this.failing) this.options.log.warn('kiosk last seen not written', { error: String(error) });
      this.failing = true;
    }
  }
}
