import type { Executor } from '../db/query';
import type { Logger } from '../logger';
import {
  type AttemptRecord,
  type ClaimedDelivery,
  claimDueDeliveries,
  fanOutEvents,
  recordAttempts,
} from '../webhooks/deliveryQueue';
import { type DeliveryShares, InFlightShares, sharesFor } from '../webhooks/deliveryShares';
import {
  type DeliveryResult,
  type RetryPolicy,
  decideAfterAttempt,
  parseRetryAfter,
  standardRetryPolicy,
} from '../webhooks/retrySchedule';
import { type Sender, createSender } from '../webhooks/sender';
import { signedHeaders } from '../webhooks/signature';

export interface WebhookDispatcherOptions {
  database: Executor;
  log: Logger;
  allowPrivateUrls: boolean;
  /** How long to sleep when there is nothing to do (WEBHOOK_POLL_MS). */
  pollMs: number;
  /** Test seam: a short schedule so tests do not wait minutes. */
  retryPolicy?: RetryPolicy;
  /** Per attempt (10 s: docs/webhooks.md). */
  timeoutMs?: number;
  /** Attempts in flight at once (each account may take a share of them, each subscription half of that: deliveryShares.ts). */
  concurrency?: number;
  /** Test seams: the sender's connections per receiver, and how long an attempt may wait for one. */
  connectionsPerOrigin?: number;
  queueTimeoutMs?: number;
  /** Outbox events fanned out per statement. */
  batchSize?: number;
  /** Called once per attempt with its result (the metrics counter of the process). */
  onResult?: (result: DeliveryResult) => void;
  /**
   * Whether the requests of this process keep it busy now: then a new event waits until it is `yieldMs`
   * old (WEBHOOK_YIELD_MS) before it is fanned out, so a burst of requests does not share the CPU with
   * its own deliveries; an event never waits longer than that for its first attempt.
   */
  busy?: () => boolean;
  yieldMs?: number;
}

export interface WebhookDispatcher {
  /** Stops polling, sends what is due once more (the events of requests that just drained), waits for every attempt and records it. */
  stop: () => Promise<void>;
  /** Results of this dispatcher's attempts. */
  stats: () => Record<DeliveryResult, number>;
}

const TIMEOUT_MS = 10_000;
/**
 * How long an attempt may wait for a connection to its receiver (the dispatcher runs up to 128 attempts,
 * the sender keeps 16 connections per receiver) before it is given up unsent and its lease released.
 */
const QUEUE_TIMEOUT_MS = 15_000;
/** Events fanned out per round at least, however few slots are free. */
const MIN_FAN_OUT = 50;
/** What a lease outlasts an attempt's two bounds by: time to record the outcome. */
const LEASE_MARGIN_MS = 5_000;

/**
 * Session options for the dispatcher's own connections. Its writes are bookkeeping (fan-out, leases,
 * outcomes): not waiting for their WAL flush keeps them out of the way of the requests' commits. A
 * database crash can lose the last few hundred milliseconds of it, which means an event delivered again
 * (at-least-once, same webhook-id), never one lost: the outbox rows themselves are the requests' writes.
 */
export const DISPATCHER_SESSION_OPTIONS = '-c synchronous_commit=off';
/** Connections a dispatcher needs: one statement at a time from its loop, one from its outcome writer. */
export const DISPATCHER_POOL_MAX = 3;
/** Outcomes are written in batches: at this many, or this long after the first one waiting. */
const RECORD_BATCH = 100;
const RECORD_DELAY_MS = 20;

/**
 * Delivers the outbox (docs/webhooks.md), safe to run in any number of processes against one database: events
 * are fanned out with SKIP LOCKED, deliveries are leased (`locked_until`) for one attempt and the outcome
 * is written only while the lease holds. Attempts run concurrently; outcomes are written in batches.
 */
export function startWebhookDispatcher(options: WebhookDispatcherOptions): WebhookDispatcher {
  const db: Executor = options.database;
  const { log, pollMs } = options;
  const policy = options.retryPolicy ?? standardRetryPolicy;
  const timeoutMs = options.timeoutMs ?? TIMEOUT_MS;
  const concurrency = options.concurrency ?? 128;

  const batchSize = options.batchSize ?? 200;
  const queueTimeoutMs = options.queueTimeoutMs ?? QUEUE_TIMEOUT_MS;
  // Longer than an attempt can take (waiting for a connection, then the exchange), so a live attempt never
  // loses its lease: 30 s with the defaults.
  const leaseMs = queueTimeoutMs + timeoutMs + LEASE_MARGIN_MS;
  const own: Record<DeliveryResult, number> = { delivered: 0, retried: 0, failed: 0, disabled: 0 };
  const sender: Sender = createSender({
    allowPrivateUrls: options.allowPrivateUrls,
    timeoutMs,
    queueTimeoutMs,
    connectionsPerOrigin: options.connectionsPerOrigin,
  });

  let stopping = false;
  const inFlight = new Set<Promise<void>>();
  // A slow or dead receiver fills only its subscription's share, a busy tenant only its account's.
  const inFlightShares = new InFlightShares();
  const { perAccount, perAccountAlone, perSubscription } = sharesFor(concurrency);
  // Refill when the slots kept for newcomers are free: one claim for many attempts, not one per finished
  // attempt; and while an account alone fills its share, new events still go out at the poll rate.
  const lowWater = Math.max(1, concurrency - perAccountAlone);
  const shares = (): DeliveryShares => ({
    perAccount,
    perAccountAlone,
    perSubscription,
    accounts: inFlightShares.accounts,
    subscriptions: inFlightShares.subscriptions,
  });
  /**
   * Whether an attempt's end freed a slot of a share that was full: its backlog may go on at once, not at
   * the next poll (the round that follows claims whatever has been freed by then, not one per attempt).
   */
  const fullShareFreed = (delivery: ClaimedDelivery) =>
    [perAccount - 1, perAccountAlone - 1].includes(inFlightShares.accounts.get(delivery.account_id) ?? 0) ||
    (inFlightShares.subscriptions.get(`${delivery.account_id}:${delivery.subscription_id}`) ?? 0) ===
      perSubscription - 1;
  let pending: AttemptRecord[] = [];
  let writes: Promise<void> = Promise.resolve();
  let wake: (() => void) | undefined;
  let waitingForSlots = false;
  let flushTimer: NodeJS.Timeout | undefined;
  /** Deliveries per fanned-out event, a moving average (how many subscriptions an event tends to match). */
  let perEvent = 1;
  let lastClaim = 0;
  let claimMore = false;
  /** An account or subscription whose share was full freed a slot: its backlog may go on now, not at the next poll. */
  let shareFreed = false;

  const yieldMs = options.yieldMs ?? 0;
  const pause = (ms: number) =>
    shareFreed
      ? Promise.resolve()
      : new Promise<void>((resolve) => {
          const timer = setTimeout(done, ms);
          function done() {
            clearTimeout(timer);
            wake = undefined;
            resolve();
          }
          wake = done;
        });

  /**
   * Writes the outcomes queued so far in one statement, after any write already under way (so outcomes
   * that arrive during a write go in the next batch). A failed write is tried again shortly; the lease
   * keeps other dispatchers off those deliveries meanwhile.
   */
  const flushRecords = (): Promise<void> => {
    clearTimeout(flushTimer);
    flushTimer = undefined;
    writes = writes.then(async () => {
      if (pending.length === 0) return;
      const batch = pending;
      pending = [];
      try {
        await recordAttempts(db, batch);
      } catch (error) {
        pending = [...batch, ...pending];
        log.warn('webhook outcomes not recorded yet', { error: String(error), attempts: batch.length });
        if (!stopping) setTimeout(() => void flushRecords(), Math.max(pollMs, 1_000)).unref();
      }
    });
    return writes;
  };

  const queueRecord = (record: AttemptRecord) => {
    pending.push(record);
    if (pending.length >= RECORD_BATCH) void flushRecords();
    else flushTimer ??= setTimeout(() => void flushRecords(), RECORD_DELAY_MS);
  };

  const attempt = async (delivery: ClaimedDelivery): Promise<void> => {
    // Signed as the attempt leaves the sender's queue: `webhook-timestamp` and the logged time are the sending time.
    const headers = (at: Date) =>
      signedHeaders({ secret: delivery.secret, messageId: delivery.event_id, at, body: delivery.body });
    const sent = await sender.send({ url: delivery.url, headers, body: delivery.body });
    if (!sent.attempted) {
      // Never written to a connection: no attempt, no result. The delivery is due again for any dispatcher.
      queueRecord({
        accountId: delivery.account_id,
        deliveryId: delivery.id,
        lease: delivery.locked_until.toISOString(),
        attempted: false,
      });
      return;
    }
    const now = new Date();
    const decision = decideAfterAttempt({
      outcome: { statusCode: sent.statusCode, retryAfterMs: parseRetryAfter(sent.retryAfter, now) },
      retryStep: delivery.retry_step,
      finalAttempt: delivery.final_attempt,
      now,
      policy,
    });
    options.onResult?.(decision.result);
    own[decision.result] += 1;
    queueRecord({
      accountId: delivery.account_id,
      deliveryId: delivery.id,
      lease: delivery.locked_until.toISOString(),
      attempted: true,
      status: decision.status,
      attempt: {
        at: sent.at.toISOString(),
        statusCode: sent.statusCode,
        error: sent.error,
        durationMs: sent.durationMs,
      },
      retryStep: decision.status === 'pending' ? decision.retryStep : delivery.retry_step,
      waitMs: decision.status === 'pending' ? Math.max(0, decision.nextAttemptAt.getTime() - now.getTime()) : null,
      disableSubscription: decision.status === 'failed' && decision.disableSubscription,
    });
  };

  const start = (delivery: ClaimedDelivery) => {
    inFlightShares.add(delivery.account_id, delivery.subscription_id, 1);
    const running: Promise<void> = attempt(delivery)
      .catch((error: unknown) =>
        log.error('webhook attempt crashed', { error: String(error), deliveryId: delivery.id }),
      )
      .finally(() => {
        inFlightShares.add(delivery.account_id, delivery.subscription_id, -1);
        inFlight.delete(running);
        if (fullShareFreed(delivery)) {
          shareFreed = true;
          wake?.();
        } else if (waitingForSlots && concurrency - inFlight.size >= lowWater) {
          wake?.();
        }
      });
    inFlight.add(running);
  };

  /**
   * One round: fan out new events (their first deliveries come back leased, up to the free slots), then
   * lease whatever else is due (retries, deliveries fanned out beyond the slots) and start those attempts.
   */
  const round = async (yielding: boolean): Promise<boolean> => {
    const freed = shareFreed;
    shareFreed = false;
    const free = concurrency - inFlight.size;
    // As many events as fill the free slots (by the deliveries per event seen lately), so few deliveries
    // are left for a second statement to lease; but never only a few: while one tenant's events fill the
    // slots, the events behind them must still become deliveries, which the claim then takes fairly.
    const limit = perEvent > 0 ? Math.min(batchSize, Math.max(MIN_FAN_OUT, Math.ceil(free / perEvent))) : batchSize;
    // Yielding to busy requests: only events that have waited `yieldMs` (the queue's head is its oldest).
    const createdBefore = yielding ? new Date(Date.now() - yieldMs) : null;
    const fanned = await fanOutEvents(db, { limit, lease: free, leaseMs, createdBefore, shares: shares() });
    if (fanned.events > 0) perEvent = 0.8 * perEvent + 0.2 * (fanned.deliveries / fanned.events);
    for (const delivery of fanned.leased) start(delivery);
    const room = concurrency - inFlight.size;
    if (room <= 0) return true;
    // First attempts came leased with the fan-out: look for retries (and deliveries fanned out past the
    // free slots) once per poll interval, or at once while there are more of them.
    const leftOver = fanned.deliveries > fanned.leased.length;
    if (!leftOver && !claimMore && !freed && Date.now() - lastClaim < pollMs) return fanned.events === limit;
    lastClaim = Date.now();
    const claimed = await claimDueDeliveries(db, room, leaseMs, shares());
    for (const delivery of claimed) start(delivery);
    claimMore = claimed.length === room;
    return fanned.events === limit || claimMore;
  };

  const loop = (async () => {
    while (!stopping) {
      let more = false;
      let failed = false;
      try {
        more = await round(yieldMs > 0 && options.busy?.() === true);
      } catch (error) {
        failed = true;
        log.warn('webhook dispatch round failed', { error: String(error) });
      }
      if (stopping) break;
      if (failed) {
        // The database is likely away: look again in a while, not at the poll rate.
        await pause(Math.max(pollMs, 1_000));
      } else if (concurrency - inFlight.size < lowWater) {
        // Busy: wait until half the slots are free (finished attempts wake us).
        waitingForSlots = true;
        await pause(timeoutMs);
        waitingForSlots = false;
      } else if (!more) {
        await pause(pollMs);
      }
    }
  })();

  return {
    async stop() {
      if (stopping) return;
      stopping = true;
      wake?.();
      await loop;
      lastClaim = 0;
      try {
        await round(false);
      } catch (error) {
        log.warn('final webhook dispatch round failed', { error: String(error) });
      }
      while (inFlight.size > 0) await Promise.all([...inFlight]);
      await flushRecords();
      await sender.close();
    },
    stats: () => ({ ...own }),
  };
}
