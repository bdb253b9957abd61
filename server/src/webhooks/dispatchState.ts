import type { AttemptRecord, ClaimedDelivery } from './deliveryQueue';
import type { DeliveryShares } from './deliveryShares';

/**
 * The webhook dispatcher's state as a value: `nextDispatch(state, event)` says what it becomes and what the
 * driver (jobs/webhookDispatcher.ts) must do, as `shared/src/domain/transition.ts` does for check-ins. No
 * I/O, no clock, no timers here: the driver performs the effects and reports back what came of them.
 */

export interface DispatchSettings {
  /** Attempts in flight at once. */
  concurrency: number;
  /** How long to sleep when there is nothing to do (and between looks for retries). */
  pollMs: number;
  /** Per attempt; also how long the loop waits for free slots before it looks again. */
  timeoutMs: number;
  /** Outbox events fanned out per statement at most. */
  batchSize: number;
  /** The shares of `concurrency` (deliveryShares.ts, sharesFor). */
  perAccount: number;
  perAccountAlone: number;
  perSubscription: number;
}

/** Events fanned out per round at least, however few slots are free. */
const MIN_FAN_OUT = 50;
/** Outcomes are written in batches: at this many, or this long after the first one waiting. */
export const RECORD_BATCH = 100;
export const RECORD_DELAY_MS = 20;
/** After a failure (the database is likely away), look again in a while, not at the poll rate. */
const AFTER_FAILURE_MS = 1_000;

/** What the loop is doing: one thing at a time. */
export type DispatchLoop =
  | { at: 'fanning'; final: boolean; freed: boolean; limit: number }
  | { at: 'claiming'; final: boolean; fannedAll: boolean; room: number }
  | { at: 'sleeping'; forSlots: boolean }
  /** Stopping, its last round done: waiting for the attempts in flight. */
  | { at: 'draining' }
  /** Stopping, every attempt done: writing the last outcomes. */
  | { at: 'flushing' }
  | { at: 'stopped' };

export interface DispatchState {
  loop: DispatchLoop;
  stopping: boolean;
  inFlight: number;
  /** Attempts in flight by account, and by `${accountId}:${subscriptionId}`. */
  accounts: ReadonlyMap<number, number>;
  subscriptions: ReadonlyMap<string, number>;
  /** Deliveries per fanned-out event, a moving average (how many subscriptions an event tends to match). */
  perEvent: number;
  /** When due deliveries were last claimed (retries are looked for once per poll interval). */
  lastClaim: number;
  /** The last claim filled the room it had: there may be more due at once. */
  claimMore: boolean;
  /** An account or subscription whose share was full freed a slot: its backlog may go on now, not at the next poll. */
  shareFreed: boolean;
  /** Outcomes waiting to be written; those being written (a write under way); a timer armed for them. */
  pending: readonly AttemptRecord[];
  writing: readonly AttemptRecord[] | undefined;
  flushArmed: boolean;
  /** A flush was asked for while a write was under way: it runs when that write ends. */
  flushAgain: boolean;
}

export type DispatchEvent =
  | { type: 'FANNED_OUT'; at: number; events: number; deliveries: number; leased: readonly ClaimedDelivery[] }
  | { type: 'CLAIMED'; at: number; claimed: readonly ClaimedDelivery[] }
  | { type: 'ROUND_FAILED'; error: string }
  | { type: 'WOKEN' }
  /** An attempt ended: its outcome to record, or none (it crashed: the driver logged it). */
  | { type: 'ATTEMPT_ENDED'; delivery: ClaimedDelivery; record: AttemptRecord | undefined }
  | { type: 'FLUSH_DUE' }
  | { type: 'RECORDS_WRITTEN' }
  | { type: 'RECORDS_FAILED'; error: string }
  | { type: 'STOP' };

export type DispatchEffect =
  /** Fan out up to `limit` new events, leasing up to `lease` of their deliveries (`final`: the round at stop, which never yields). */
  | { type: 'FAN_OUT'; limit: number; lease: number; final: boolean; shares: DeliveryShares }
  | { type: 'CLAIM'; room: number; shares: DeliveryShares }
  | { type: 'ATTEMPT'; delivery: ClaimedDelivery }
  | { type: 'SLEEP'; ms: number }
  | { type: 'CANCEL_SLEEP' }
  | { type: 'FLUSH_AFTER'; ms: number }
  | { type: 'CANCEL_FLUSH' }
  /** A flush after a failed write: a timer of its own, not cancelled by a flush. */
  | { type: 'RETRY_FLUSH_AFTER'; ms: number }
  | { type: 'WRITE'; records: readonly AttemptRecord[] }
  | { type: 'WARN'; message: string; fields: Record<string, unknown> }
  /** Everything is done and recorded: close the sender. */
  | { type: 'STOPPED' };

export interface DispatchStep {
  state: DispatchState;
  effects: DispatchEffect[];
}

const lowWater = (settings: DispatchSettings) => Math.max(1, settings.concurrency - settings.perAccountAlone);

const sharesOf = (state: DispatchState, settings: DispatchSettings): DeliveryShares => ({
  perAccount: settings.perAccount,
  perAccountAlone: settings.perAccountAlone,
  perSubscription: settings.perSubscription,
  accounts: state.accounts,
  subscriptions: state.subscriptions,
});

function counted<K>(counts: ReadonlyMap<K, number>, key: K, step: 1 | -1): ReadonlyMap<K, number> {
  const next = new Map(counts);
  const count = (counts.get(key) ?? 0) + step;
  if (count > 0) next.set(key, count);
  else next.delete(key);
  return next;
}

const subscriptionKey = (delivery: ClaimedDelivery) => `${delivery.account_id}:${delivery.subscription_id}`;

/** Attempts start: each takes a slot of its account's and subscription's shares. */
function started(step: DispatchStep, deliveries: readonly ClaimedDelivery[]): DispatchStep {
  let { state } = step;
  for (const delivery of deliveries) {
    state = {
      ...state,
      inFlight: state.inFlight + 1,
      accounts: counted(state.accounts, delivery.account_id, 1),
      subscriptions: counted(state.subscriptions, subscriptionKey(delivery), 1),
    };
  }
  return {
    state,
    effects: [...step.effects, ...deliveries.map((delivery) => ({ type: 'ATTEMPT' as const, delivery }))],
  };
}

/**
 * A round: fan out new events (their first deliveries come back leased, up to the free slots), then lease
 * whatever else is due. As many events as fill the free slots (by the deliveries per event seen lately), so
 * few deliveries are left for a second statement to lease; but never only a few: while one tenant's events
 * fill the slots, the events behind them must still become deliveries, which the claim then takes fairly.
 */
function beginRound(step: DispatchStep, settings: DispatchSettings, final: boolean): DispatchStep {
  const state = { ...step.state, shareFreed: false, lastClaim: final ? 0 : step.state.lastClaim };
  const free = settings.concurrency - state.inFlight;
  const limit =
    state.perEvent > 0
      ? Math.min(settings.batchSize, Math.max(MIN_FAN_OUT, Math.ceil(free / state.perEvent)))
      : settings.batchSize;
  return {
    state: { ...state, loop: { at: 'fanning', final, freed: step.state.shareFreed, limit } },
    effects: [...step.effects, { type: 'FAN_OUT', limit, lease: free, final, shares: sharesOf(state, settings) }],
  };
}

/** Waits `ms`, or not at all when a full share freed a slot meanwhile. */
function pause(step: DispatchStep, settings: DispatchSettings, ms: number, forSlots: boolean): DispatchStep {
  if (step.state.shareFreed) return beginRound(step, settings, false);
  return {
    state: { ...step.state, loop: { at: 'sleeping', forSlots } },
    effects: [...step.effects, { type: 'SLEEP', ms }],
  };
}

/** After a round: the last round at stop, once more at once, or a pause (for slots, or until the next poll). */
function endRound(step: DispatchStep, settings: DispatchSettings, final: boolean, more: boolean): DispatchStep {
  if (final) return drain({ ...step, state: { ...step.state, loop: { at: 'draining' } } });
  if (step.state.stopping) return beginRound(step, settings, true);
  // Busy: wait until half the slots are free (finished attempts wake the loop).
  if (settings.concurrency - step.state.inFlight < lowWater(settings))
    return pause(step, settings, settings.timeoutMs, true);
  return more ? beginRound(step, settings, false) : pause(step, settings, settings.pollMs, false);
}

/** Stopping: once no attempt is in flight, the last outcomes are written. */
function drain(step: DispatchStep): DispatchStep {
  if (step.state.loop.at !== 'draining' || step.state.inFlight > 0) return step;
  return flush({ ...step, state: { ...step.state, loop: { at: 'flushing' } } });
}

/**
 * Writes the outcomes queued so far in one statement, after any write already under way (outcomes that
 * arrive during a write go in the next batch). When stopping, the last flush ends the dispatcher.
 */
function flush(step: DispatchStep): DispatchStep {
  let { state } = step;
  const effects = [...step.effects];
  if (state.flushArmed) {
    effects.push({ type: 'CANCEL_FLUSH' });
    state = { ...state, flushArmed: false };
  }
  if (state.writing) return { state: { ...state, flushAgain: true }, effects };
  if (state.pending.length > 0) {
    effects.push({ type: 'WRITE', records: state.pending });
    return { state: { ...state, writing: state.pending, pending: [] }, effects };
  }
  return settleWrites({ state, effects });
}

/** After a write ended: the flush asked for meanwhile, or, when stopping and all is written, the end. */
function settleWrites(step: DispatchStep): DispatchStep {
  const { state } = step;
  if (state.flushAgain && !state.writing) return flush({ ...step, state: { ...state, flushAgain: false } });
  if (state.loop.at !== 'flushing' || state.writing) return step;
  return { state: { ...state, loop: { at: 'stopped' } }, effects: [...step.effects, { type: 'STOPPED' }] };
}

/** Whether an attempt's end left its account's or subscription's full share with a free slot. */
const freedFullShare = (state: DispatchState, settings: DispatchSettings, delivery: ClaimedDelivery) =>
  [settings.perAccount - 1, settings.perAccountAlone - 1].includes(state.accounts.get(delivery.account_id) ?? 0) ||
  (state.subscriptions.get(subscriptionKey(delivery)) ?? 0) === settings.perSubscription - 1;

function attemptEnded(
  state: DispatchState,
  settings: DispatchSettings,
  event: Extract<DispatchEvent, { type: 'ATTEMPT_ENDED' }>,
): DispatchStep {
  let step: DispatchStep = { state, effects: [] };
  if (event.record) {
    const pending = [...state.pending, event.record];
    step = { state: { ...state, pending }, effects: [] };
    if (pending.length >= RECORD_BATCH) step = flush(step);
    else if (!state.flushArmed)
      step = { state: { ...step.state, flushArmed: true }, effects: [{ type: 'FLUSH_AFTER', ms: RECORD_DELAY_MS }] };
  }
  const { delivery } = event;
  const after: DispatchState = {
    ...step.state,
    inFlight: step.state.inFlight - 1,
    accounts: counted(step.state.accounts, delivery.account_id, -1),
    subscriptions: counted(step.state.subscriptions, subscriptionKey(delivery), -1),
  };
  step = { ...step, state: after };
  const { loop } = after;
  if (freedFullShare(after, settings, delivery)) {
    step = { ...step, state: { ...after, shareFreed: true } };
    if (loop.at === 'sleeping') return beginRound(wake(step), settings, false);
  } else if (loop.at === 'sleeping' && loop.forSlots && settings.concurrency - after.inFlight >= lowWater(settings)) {
    return beginRound(wake(step), settings, false);
  }
  return drain(step);
}

const wake = (step: DispatchStep): DispatchStep => ({ ...step, effects: [...step.effects, { type: 'CANCEL_SLEEP' }] });

/** The dispatcher as it starts: its first round under way. */
export function startDispatch(settings: DispatchSettings): DispatchStep {
  const state: DispatchState = {
    loop: { at: 'sleeping', forSlots: false },
    stopping: false,
    inFlight: 0,
    accounts: new Map(),
    subscriptions: new Map(),
    perEvent: 1,
    lastClaim: 0,
    claimMore: false,
    shareFreed: false,
    pending: [],
    writing: undefined,
    flushArmed: false,
    flushAgain: false,
  };
  return beginRound({ state, effects: [] }, settings, false);
}

/** The dispatcher's next state after `event`, and what the driver must do. Events that do not apply change nothing. */
export function nextDispatch(state: DispatchState, event: DispatchEvent, settings: DispatchSettings): DispatchStep {
  const { loop } = state;
  const step: DispatchStep = { state, effects: [] };
  switch (event.type) {
    case 'FANNED_OUT': {
      if (loop.at !== 'fanning') return step;
      const perEvent =
        event.events > 0 ? 0.8 * state.perEvent + 0.2 * (event.deliveries / event.events) : state.perEvent;
      const fanned = started({ state: { ...state, perEvent }, effects: [] }, event.leased);
      const room = settings.concurrency - fanned.state.inFlight;
      if (room <= 0) return endRound(fanned, settings, loop.final, true);
      // First attempts came leased with the fan-out: look for retries (and deliveries fanned out past the
      // free slots) once per poll interval, or at once while there are more of them.
      const leftOver = event.deliveries > event.leased.length;
      const fannedAll = event.events === loop.limit;
      if (!leftOver && !state.claimMore && !loop.freed && event.at - state.lastClaim < settings.pollMs)
        return endRound(fanned, settings, loop.final, fannedAll);
      return {
        state: { ...fanned.state, lastClaim: event.at, loop: { at: 'claiming', final: loop.final, fannedAll, room } },
        effects: [...fanned.effects, { type: 'CLAIM', room, shares: sharesOf(fanned.state, settings) }],
      };
    }
    case 'CLAIMED': {
      if (loop.at !== 'claiming') return step;
      const claimMore = event.claimed.length === loop.room;
      const claimed = started({ state: { ...state, claimMore }, effects: [] }, event.claimed);
      return endRound(claimed, settings, loop.final, loop.fannedAll || claimMore);
    }
    case 'ROUND_FAILED': {
      if (loop.at !== 'fanning' && loop.at !== 'claiming') return step;
      const message = loop.final ? 'final webhook dispatch round failed' : 'webhook dispatch round failed';
      const warned = { state, effects: [{ type: 'WARN' as const, message, fields: { error: event.error } }] };
      if (loop.final || state.stopping) return endRound(warned, settings, loop.final, false);
      return pause(warned, settings, Math.max(settings.pollMs, AFTER_FAILURE_MS), false);
    }
    case 'WOKEN':
      return loop.at === 'sleeping' ? beginRound(step, settings, false) : step;
    case 'ATTEMPT_ENDED':
      return attemptEnded(state, settings, event);
    case 'FLUSH_DUE':
      return loop.at === 'stopped' ? step : flush(step);
    case 'RECORDS_WRITTEN':
      return settleWrites({ state: { ...state, writing: undefined }, effects: [] });
    case 'RECORDS_FAILED': {
      const batch = state.writing ?? [];
      const effects: DispatchEffect[] = [
        {
          type: 'WARN',
          message: 'webhook outcomes not recorded yet',
          fields: { error: event.error, attempts: batch.length },
        },
      ];
      // The lease keeps other dispatchers off those deliveries meanwhile.
      if (!state.stopping) effects.push({ type: 'RETRY_FLUSH_AFTER', ms: Math.max(settings.pollMs, AFTER_FAILURE_MS) });
      return settleWrites({ state: { ...state, writing: undefined, pending: [...batch, ...state.pending] }, effects });
    }
    case 'STOP': {
      if (state.stopping) return step;
      const stopping = { state: { ...state, stopping: true }, effects: [] };
      // A round under way ends first; a sleep ends now. Then one last round, which does not wait for a poll.
      return loop.at === 'sleeping' ? beginRound(wake(stopping), settings, true) : stopping;
    }
  }
}
