import type { Executor } from '../db/query';
import type { Logger } from '../logger';
import { readStableEvents, stableEnd } from '../queries/liveEvents';
import { streamEventOf } from './frames';
import { ORIGIN, type Position } from './position';
import { type Subscriber, Subscribers } from './subscribers';

export interface LiveEventHubOptions {
  /** The pool reads go through. */
  pool: Executor;
  log: Logger;
  /** How often it looks for new events (EVENTS_POLL_MS): an index probe that finds nothing costs next to nothing. */
  pollMs?: number;
  /** With no stream open this long, the reader stops until the next one. */
  idleStopMs?: number;
}

const PAGE = 500;

/**
 * This instance's reader of the published changes (migration 0030): it follows the table in position order
 * from where it started, polling, and hands each event to the open streams of its account and site. Every
 * instance runs one, so each streams every change once to its own clients. It runs only while streams are
 * open. Polling rather than LISTEN/NOTIFY: a NOTIFY in the writing transaction would make PostgreSQL commit
 * every publishing write one at a time (docs/operations.md, Capacity).
 */
export class LiveEventHub {
  private readonly subscribers = new Subscribers();
  private readonly pollMs: number;
  private readonly idleStopMs: number;
  private cursor: Position = ORIGIN;
  private started: Promise<void> | undefined;
  private reading: Promise<void> | undefined;
  private pollTimer: NodeJS.Timeout | undefined;
  private idleTimer: NodeJS.Timeout | undefined;
  private closed = false;
  private failing = false;

  constructor(private readonly options: LiveEventHubOptions) {
    this.pollMs = options.pollMs ?? 100;
    this.idleStopMs = options.idleStopMs ?? 30_000;
  }

  /** The last position dispatched: every stream that is live has been handed every event up to it. */
  get position(): Position {
    return this.cursor;
  }

  get streams(): number {
    return this.subscribers.size;
  }

  /** Starts following (if not yet) and adds the subscriber; answers the position from which it is handed events. */
  async join(subscriber: Subscriber): Promise<Position> {
    if (this.closed) throw new Error('the event hub is closed');
    clearTimeout(this.idleTimer);
    this.idleTimer = undefined;
    await this.start();
    this.subscribers.add(subscriber);
    return this.cursor;
  }

  leave(subscriber: Subscriber): void {
    this.subscribers.remove(subscriber);
    if (this.subscribers.size > 0 || this.closed || this.idleTimer) return;
    this.idleTimer = setTimeout(() => {
      this.idleTimer = undefined;
      if (this.subscribers.size === 0) this.stop();
    }, this.idleStopMs);
    this.idleTimer.unref();
  }

  /** Re-files a subscriber whose sites change (`change` applies the change). */
  move(subscriber: Subscriber, change: () => void): void {
    const present = this.subscribers.remove(subscriber);
    change();
    if (present) this.subscribers.add(subscriber);
  }

  /** Ends every open stream (each client reconnects, to another instance if this one is going) and stops. */
  close(): void {
    this.closed = true;
    for (const subscriber of this.subscribers.all()) subscriber.close();
    this.stop();
  }

  private start(): Promise<void> {
    this.started ??= (async () => {
      this.cursor = await stableEnd(this.options.pool);
      this.pollTimer = setInterval(() => this.poll(), this.pollMs);
      this.pollTimer.unref();
    })().catch((error: unknown) => {
      this.started = undefined;
      throw error;
    });
    return this.started;
  }

  private stop(): void {
    this.started = undefined;
    clearInterval(this.pollTimer);
    clearTimeout(this.idleTimer);
  }

  /** One read at a time: a poll while the last one is still reading is skipped, not queued. */
  private poll(): void {
    if (!this.started || this.closed || this.reading) return;
    this.reading = this.readNew().finally(() => {
      this.reading = undefined;
    });
  }

  private async readNew(): Promise<void> {
    try {
      for (;;) {
        const rows = await readStableEvents(this.options.pool, this.cursor, PAGE);
        for (const row of rows) {
          this.cursor = row.position;
          if (!this.subscribers.follows(row.accountId)) continue;
          const event = streamEventOf(row);
          if (event) this.subscribers.dispatch(event);
        }
        if (rows.length < PAGE) break;
      }
      this.failing = false;
    } catch (error) {
      // The database away: the next poll tries again; said once, not at every poll.
      if (!this.failing) this.options.log.warn('event stream reader failed', { error: String(error) });
      this.failing = true;
    }
  }
}
