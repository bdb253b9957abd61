import pg from 'pg';
import type { Executor } from '../db/query';
import { sql } from '../db/sql';
import type { Logger } from '../logger';
import { readStableEvents, stableEnd } from '../queries/liveEvents';
import { streamEventOf } from './frames';
import { ORIGIN, type Position } from './position';
import { type Subscriber, Subscribers } from './subscribers';

export interface LiveEventHubOptions {
  /** The pool reads go through. */
  pool: Executor;
  /** Where the LISTEN connection goes (the pool's database). */
  databaseUrl: string;
  log: Logger;
  /** A read at least this often, should a notification be lost (the LISTEN connection dropped, say). */
  pollMs?: number;
  /** With no stream open this long, the reader stops (and its connection closes) until the next one. */
  idleStopMs?: number;
}

const PAGE = 500;
const LISTEN = sql`LISTEN gatehouse_live`;
/** Waits before reading again for a transaction that has committed but whose events are not stable yet. */
const HELD_RETRY_MS = { first: 10, max: 500 };

/**
 * This instance's reader of the published changes (migration 0030): it follows the table in position order
 * from where it started, woken by NOTIFY at each commit (and by a poll), and hands each event to the open
 * streams of its account and site. Every instance runs one, so each streams every change once to its own
 * clients. It runs only while streams are open.
 */
export class LiveEventHub {
  private readonly subscribers = new Subscribers();
  private readonly pollMs: number;
  private readonly idleStopMs: number;
  private cursor: Position = ORIGIN;
  private started: Promise<void> | undefined;
  private reading: Promise<void> | undefined;
  private readAgain = false;
  /** The newest transaction a notification named: events up to it exist, stable or soon. */
  private notifiedTx = 0;
  private heldRetryMs = 0;
  private listener: pg.Client | undefined;
  private readonly timers = new Set<NodeJS.Timeout>();
  private pollTimer: NodeJS.Timeout | undefined;
  private idleTimer: NodeJS.Timeout | undefined;
  private closed = false;
  private failing = false;

  constructor(private readonly options: LiveEventHubOptions) {
    this.pollMs = options.pollMs ?? 1_000;
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
    if (!this.subscribers.remove(subscriber)) {
      change();
      return;
    }
    change();
    this.subscribers.add(subscriber);
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
      this.pollTimer = setInterval(() => this.wake(), this.pollMs);
      this.pollTimer.unref();
      void this.listen();
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
    for (const timer of this.timers) clearTimeout(timer);
    this.timers.clear();
    const listener = this.listener;
    this.listener = undefined;
    void listener?.end().catch(() => undefined);
  }

  private later(ms: number, run: () => void): void {
    const timer = setTimeout(() => {
      this.timers.delete(timer);
      run();
    }, ms);
    timer.unref();
    this.timers.add(timer);
  }

  /** Reads what is new; a wake while reading makes one more read after it. */
  private wake(): void {
    if (!this.started || this.closed) return;
    if (this.reading) {
      this.readAgain = true;
      return;
    }
    this.reading = this.readNew().finally(() => {
      this.reading = undefined;
      if (!this.readAgain) return;
      this.readAgain = false;
      this.wake();
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
      // The database away: the poll tries again; said once, not at every poll.
      if (!this.failing) this.options.log.warn('event stream reader failed', { error: String(error) });
      this.failing = true;
      return;
    }
    // A committed transaction whose events wait behind an older one still running: look again shortly.
    if (this.notifiedTx > this.cursor.tx) {
      this.heldRetryMs = Math.min(Math.max(this.heldRetryMs * 2, HELD_RETRY_MS.first), HELD_RETRY_MS.max);
      this.later(this.heldRetryMs, () => this.wake());
    } else {
      this.heldRetryMs = 0;
    }
  }

  /** One connection LISTENing for commits; it reconnects after a second when it drops (the poll covers the gap). */
  private async listen(): Promise<void> {
    if (this.closed || !this.started || this.listener) return;
    const client = new pg.Client({
      connectionString: this.options.databaseUrl,
      application_name: 'gatehouse-live',
      keepAlive: true,
    });
    this.listener = client;
    const lost = () => {
      if (this.listener !== client) return;
      this.listener = undefined;
      void client.end().catch(() => undefined);
      this.later(1_000, () => void this.listen());
    };
    client.on('error', lost);
    client.on('end', lost);
    client.on('notification', (message) => {
      const tx = Number(message.payload);
      if (Number.isSafeInteger(tx) && tx > this.notifiedTx) this.notifiedTx = tx;
      this.wake();
    });
    try {
      await client.connect();
      await client.query(LISTEN.text);
      // Whatever committed while it was not listening.
      this.wake();
    } catch {
      lost();
    }
  }
}
