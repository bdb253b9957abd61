import type { Executor } from '../db/query';
import type { Logger } from '../logger';
import {
  type AttemptRecord,
  type ClaimedDelivery,
  claimDueDeliveries,
  fanOutEvents,
  recordAttempts,
} from '../webhooks/deliveryQueue';
import { sharesFor } from '../webhooks/deliveryShares';
import { type DispatchEffect, type DispatchEvent, nextDispatch, startDispatch } from '../webhooks/dispatchState';
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

/**
 * Delivers the outbox (docs/webhooks.md), safe to run in any number of processes against one database: events
 * are fanned out with SKIP LOCKED, deliveries are leased (`locked_until`) for one attempt and the outcome
 * is written only while the lease holds. Attempts run concurrently; outcomes are written in batches.
 * When to do what is decided by webhooks/dispatchState.ts; this driver only performs it: it runs the
 * statements and the attempts, keeps the timers, and reports what came of each.
 */
export function startWebhookDispatcher(options: WebhookDispatcherOptions): WebhookDispatcher {
  const db: Executor = options.database;
  const { log, pollMs } = options;
  const policy = options.retryPolicy ?? standardRetryPolicy;
  const timeoutMs = options.timeoutMs ?? TIMEOUT_MS;
  const concurrency = options.concurrency ?? 128;
  const queueTimeoutMs = options.queueTimeoutMs ?? QUEUE_TIMEOUT_MS;
  // Longer than an attempt can take (waiting for a connection, then the exchange), so a live attempt never
  // loses its lease: 30 s with the defaults.
  const leaseMs = queueTimeoutMs + timeoutMs + LEASE_MARGIN_MS;
  const yieldMs = options.yieldMs ?? 0;
  const settings = { concurrency, pollMs, timeoutMs, batchSize: options.batchSize ?? 200, ...sharesFor(concurrency) };
  const own: Record<DeliveryResult, number> = { delivered: 0, retried: 0, failed: 0, disabled: 0 };
  const sender: Sender = createSender({
    allowPrivateUrls: options.allowPrivateUrls,
    timeoutMs,
    queueTimeoutMs,
    connectionsPerOrigin: options.connectionsPerOrigin,
  });

  /** One attempt: the request, then its outcome as the record statement takes it (or the lease given back). */
  const attempt = async (delivery: ClaimedDelivery): Promise<AttemptRecord> => {
    // Signed as the attempt leaves the sender's queue: `webhook-timestamp` and the logged time are the sending time.
    const headers = (at: Date) =>
      signedHeaders({ secret: delivery.secret, messageId: delivery.event_id, at, body: delivery.body });
    const sent = await sender.send({ url: delivery.url, headers, body: delivery.body });
    const lease = delivery.locked_until.toISOString();
    // Never written to a connection: no attempt, no result. The delivery is due again for any dispatcher.
    if (!sent.attempted) return { accountId: delivery.account_id, deliveryId: delivery.id, lease, attempted: false };
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
    return {
      accountId: delivery.account_id,
      deliveryId: delivery.id,
      lease,
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
    };
  };

  let sleep: NodeJS.Timeout | undefined;
  let flushTimer: NodeJS.Timeout | undefined;
  let closed: Promise<void> | undefined;
  let markStopped: () => void = () => undefined;
  const stopped = new Promise<void>((resolve) => (markStopped = resolve));
  const fail = (error: unknown) => String(error);

  const perform = (effect: DispatchEffect): void => {
    switch (effect.type) {
      case 'FAN_OUT': {
        // Yielding to busy requests: only events that have waited `yieldMs` (the queue's head is its oldest).
        const yielding = !effect.final && yieldMs > 0 && options.busy?.() === true;
        const createdBefore = yielding ? new Date(Date.now() - yieldMs) : null;
        fanOutEvents(db, {
          limit: effect.limit,
          lease: effect.lease,
          leaseMs,
          createdBefore,
          shares: effect.shares,
        }).then(
          (fanned) => dispatch({ type: 'FANNED_OUT', at: Date.now(), ...fanned }),
          (error: unknown) => dispatch({ type: 'ROUND_FAILED', error: fail(error) }),
        );
        return;
      }
      case 'CLAIM':
        claimDueDeliveries(db, effect.room, leaseMs, effect.shares).then(
          (claimed) => dispatch({ type: 'CLAIMED', at: Date.now(), claimed }),
          (error: unknown) => dispatch({ type: 'ROUND_FAILED', error: fail(error) }),
        );
        return;
      case 'ATTEMPT': {
        const { delivery } = effect;
        attempt(delivery).then(
          (record) => dispatch({ type: 'ATTEMPT_ENDED', delivery, record }),
          (error: unknown) => {
            log.error('webhook attempt crashed', { error: fail(error), deliveryId: delivery.id });
            dispatch({ type: 'ATTEMPT_ENDED', delivery, record: undefined });
          },
        );
        return;
      }
      case 'SLEEP':
        clearTimeout(sleep);
        sleep = setTimeout(() => dispatch({ type: 'WOKEN' }), effect.ms);
        return;
      case 'CANCEL_SLEEP':
        clearTimeout(sleep);
        return;
      case 'FLUSH_AFTER':
        flushTimer = setTimeout(() => dispatch({ type: 'FLUSH_DUE' }), effect.ms);
        return;
      case 'CANCEL_FLUSH':
        clearTimeout(flushTimer);
        return;
      case 'RETRY_FLUSH_AFTER':
        setTimeout(() => dispatch({ type: 'FLUSH_DUE' }), effect.ms).unref();
        return;
      case 'WRITE':
        recordAttempts(db, [...effect.records]).then(
          () => dispatch({ type: 'RECORDS_WRITTEN' }),
          (error: unknown) => dispatch({ type: 'RECORDS_FAILED', error: fail(error) }),
        );
        return;
      case 'WARN':
        log.warn(effect.message, effect.fields);
        return;
      case 'STOPPED':
        closed = sender.close();
        markStopped();
        return;
    }
  };

  const first = startDispatch(settings);
  let state = first.state;
  /** Every event goes through the pure transition, then its effects are performed in order (each reports back later). */
  function dispatch(event: DispatchEvent): void {
    const step = nextDispatch(state, event, settings);
    state = step.state;
    step.effects.forEach(perform);
  }
  first.effects.forEach(perform);

  let stopAsked = false;
  return {
    async stop() {
      if (stopAsked) return;
      stopAsked = true;
      dispatch({ type: 'STOP' });
      await stopped;
      await closed;
    },
    stats: () => ({ ...own }),
  };
}
