import type { Scope } from '../../../shared/src/schemas/admin';
import type { ResetEvent } from '../../../shared/src/schemas/events';
import type { Executor } from '../db/query';
import { replayEvents } from '../queries/liveEvents';
import type { LiveEventHub } from './eventHub';
import { type StreamEvent, controlFrame, keepAliveFrame, streamEventOf } from './frames';
import { ORIGIN, type Position, isAfter } from './position';
import type { Subscriber } from './subscribers';

/** What a stream's caller may see: its account, its sites (null: every site of the account) and scopes. */
export interface StreamAccess {
  accountId: number;
  siteIds: ReadonlySet<number> | null;
  scopes: ReadonlySet<Scope>;
}

export interface EventStreamOptions {
  hub: LiveEventHub;
  access: StreamAccess;
  keepAliveMs: number;
  recheckMs: number;
  /** The caller's access as it is now; undefined once it may no longer stream (revoked, expired, signed out). */
  recheck: () => Promise<StreamAccess | undefined>;
}

/** A replay longer than this is not worth it: the client reads afresh instead (`reset`, reason `behind`). */
export const MAX_REPLAY = 1_000;
/** A client this far behind (its socket not taking what is written) is let go; it resumes from its Last-Event-ID. */
const MAX_QUEUED_BYTES = 256 * 1024;
/** How long a client waits before reconnecting: spread, so that an instance's clients do not all come back at once. */
const retryMs = () => 1_000 + Math.floor(Math.random() * 4_000);

/**
 * One client's event stream (docs/api.md, Event stream): its replay or reset, then every event of its
 * account and sites that its scopes see, a comment every `keepAliveMs`, its access checked again every
 * `recheckMs`. The response body is this object, read as an async iterable of text chunks (routes/sendStream.ts).
 */
export class EventStream implements Subscriber, AsyncIterableIterator<string> {
  readonly accountId: number;
  siteIds: ReadonlySet<number> | null;
  private scopes: ReadonlySet<Scope>;
  private state: 'joining' | 'live' | 'closed' = 'joining';
  /** Events that came while the replay was read, handed on once it is out. */
  private held: StreamEvent[] = [];
  private queue: string[] = [];
  private queuedBytes = 0;
  /** The position of the last event written, or of the id the client was last given: nothing at or before it is sent. */
  private lastSent: Position = ORIGIN;
  private waiting: ((result: IteratorResult<string>) => void) | undefined;
  private readonly timers: NodeJS.Timeout[] = [];
  private readonly onClosed: Array<() => void> = [];

  constructor(private readonly options: EventStreamOptions) {
    this.accountId = options.access.accountId;
    this.siteIds = options.access.siteIds;
    this.scopes = options.access.scopes;
  }

  /** Joins the instance's reader, then writes the replay since `resumeFrom` (or a reset), and goes live. */
  async open(db: Executor, resumeFrom: Position | undefined): Promise<void> {
    this.push(`retry: ${retryMs()}\n\n`);
    const start = await this.options.hub.join(this);
    try {
      const replay = resumeFrom
        ? await replayEvents(db, {
            accountId: this.accountId,
            siteIds: this.siteIds && [...this.siteIds],
            from: resumeFrom,
            limit: MAX_REPLAY,
          })
        : undefined;
      if (replay?.kind === 'events') {
        this.push(controlFrame('ready', { resumed: true }));
        this.lastSent = resumeFrom ?? ORIGIN;
        for (const row of replay.events) {
          const event = streamEventOf(row);
          if (event && this.sees(event)) this.push(event.frame);
          this.lastSent = row.position;
        }
      } else {
        const reason: ResetEvent['reason'] = replay === undefined ? 'start' : replay.kind;
        this.push(controlFrame('reset', { reason }, start));
        this.lastSent = start;
      }
    } catch (error) {
      this.close();
      throw error;
    }
    this.goLive();
  }

  deliver(event: StreamEvent): void {
    if (this.state === 'closed' || !this.sees(event)) return;
    if (this.state === 'joining') {
      this.held.push(event);
      return;
    }
    if (!isAfter(event.position, this.lastSent)) return;
    this.lastSent = event.position;
    this.push(event.frame);
  }

  /** Ends the stream once what is queued is written. */
  close(): void {
    if (this.state === 'closed') return;
    this.state = 'closed';
    this.held = [];
    for (const timer of this.timers) clearInterval(timer);
    this.options.hub.leave(this);
    for (const callback of this.onClosed.splice(0)) callback();
    this.settle();
  }

  /** Calls `callback` once the stream ends, however it ends (at once if it already has). */
  whenClosed(callback: () => void): void {
    if (this.state === 'closed') callback();
    else this.onClosed.push(callback);
  }

  next(): Promise<IteratorResult<string>> {
    const chunk = this.drain();
    if (chunk !== undefined) return Promise.resolve({ value: chunk, done: false });
    if (this.state === 'closed') return Promise.resolve({ value: undefined, done: true });
    return new Promise((resolve) => {
      this.waiting = resolve;
    });
  }

  /** The client left (or the response ended): stop at once. */
  return(): Promise<IteratorResult<string>> {
    this.queue = [];
    this.close();
    return Promise.resolve({ value: undefined, done: true });
  }

  [Symbol.asyncIterator](): this {
    return this;
  }

  private sees(event: StreamEvent): boolean {
    return event.scopes.some((scope) => this.scopes.has(scope));
  }

  private goLive(): void {
    if (this.state !== 'joining') return;
    this.state = 'live';
    const held = this.held;
    this.held = [];
    for (const event of held) this.deliver(event);
    const keepAlive = setInterval(() => this.keepAlive(), this.options.keepAliveMs);
    // The first check at a random point of the period, so streams opened together are not checked together.
    const recheck = setTimeout(() => {
      void this.recheck();
      const again = setInterval(() => void this.recheck(), this.options.recheckMs);
      again.unref();
      this.timers.push(again);
    }, Math.random() * this.options.recheckMs);
    keepAlive.unref();
    recheck.unref();
    this.timers.push(keepAlive, recheck);
  }

  /** The comment line; when the reader has moved past the last id the client holds, that id moves on too. */
  private keepAlive(): void {
    const at = this.options.hub.position;
    const moved = isAfter(at, this.lastSent);
    if (moved) this.lastSent = at;
    this.push(keepAliveFrame(moved ? at : undefined));
  }

  private async recheck(): Promise<void> {
    let access: StreamAccess | undefined;
    try {
      access = await this.options.recheck();
    } catch {
      return; // The database away: the stream goes on; the next check decides.
    }
    if (this.state === 'closed') return;
    if (!access) {
      this.close();
      return;
    }
    this.scopes = access.scopes;
    const sites = access.siteIds;
    if (!sameSites(sites, this.siteIds)) this.options.hub.move(this, () => (this.siteIds = sites));
  }

  private push(text: string): void {
    if (this.state === 'closed') return;
    this.queue.push(text);
    this.queuedBytes += text.length;
    if (this.queuedBytes > MAX_QUEUED_BYTES) {
      this.queue = [];
      this.close();
      return;
    }
    this.settle();
  }

  private drain(): string | undefined {
    if (this.queue.length === 0) return undefined;
    const chunk = this.queue.length === 1 ? this.queue[0] : this.queue.join('');
    this.queue = [];
    this.queuedBytes = 0;
    return chunk;
  }

  /** Hands the waiting reader what is queued, or the end. */
  private settle(): void {
    const waiting = this.waiting;
    if (!waiting) return;
    const chunk = this.drain();
    if (chunk !== undefined) {
      this.waiting = undefined;
      waiting({ value: chunk, done: false });
    } else if (this.state === 'closed') {
      this.waiting = undefined;
      waiting({ value: undefined, done: true });
    }
  }
}

function sameSites(a: ReadonlySet<number> | null, b: ReadonlySet<number> | null): boolean {
  if (a === null || b === null) return a === b;
  return a.size === b.size && [...a].every((site) => b.has(site));
}
