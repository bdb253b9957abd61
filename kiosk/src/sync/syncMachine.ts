import type { PullResult } from './pull';

/**
 * The sync engine's decisions as a value: `nextSync(state, event, settings)` says what the engine becomes and
 * what its driver (engine.ts) must do, as webhooks/dispatchState.ts does for the server's dispatcher. No I/O,
 * no clock, no timers, no randomness here: the driver performs the effects and reports back what came of
 * them, with the device clock's time where a decision needs it and the backoff's random draw as a number.
 */

export interface SyncSettings {
  /** Gate kiosks keep the vehicles in step; visitor kiosks the people, the watchlist digest and the passes. */
  mode: 'visitor' | 'gate';
  /** The retry policy's longest wait: a pause further away than this means the device clock was set back. */
  capMs: number;
}

/** What a pull brings, one request (or page run) each, in this order. */
export type PullPart = 'people' | 'vehicles' | 'watchlistDigest' | 'vehicleDirectory' | 'sitePasses';

/**
 * The visitor kiosk keeps its people by the site's change feed, the watchlist digest (the lobby tells a
 * watchlisted visitor to see reception, offline too) and the passes' keys. A gate shows no people (its token
 * may not read them, §27): it keeps the vehicles on site and its copy of the registered vehicles.
 */
export const PULL_PARTS: Record<SyncSettings['mode'], readonly PullPart[]> = {
  visitor: ['people', 'watchlistDigest', 'sitePasses'],
  gate: ['vehicles', 'vehicleDirectory'],
};

/** Where the pass under way is (one at a time: the guarded loop runs them). */
export type SyncPass =
  | { at: 'none' }
  | { at: 'resettingBackoff' }
  | { at: 'pushing' }
  /** A failed pass waits for the backoff's draw, then schedules, or ends with the error it threw. */
  | { at: 'pausing'; then: 'schedule' | 'fail' }
  | { at: 'pulling'; rest: readonly PullPart[]; allPulled: boolean }
  | { at: 'scheduling' };

export interface SyncState {
  /** An engine runs once: 'new' until started; stopped for good (a stop before any start leaves it 'new'). */
  life: 'new' | 'running' | 'stopped';
  /** The server stopped taking the kiosk's token: no pass, no timer, no retry loop from then on. */
  revoked: boolean;
  pullWanted: boolean;
  /** Back online: the next pass first makes what failed for want of a network due at once. */
  backoffReset: boolean;
  /**
   * While the server does not answer at all, or its answers cannot be written down (the device's storage is
   * full), or a pass fails outright, the whole queue waits (not just the visits that were tried): a backoff
   * for the pass itself, so a long queue does not hammer the server one visit at a time, nor resend what it
   * cannot record in a loop.
   */
  failedPasses: number;
  pausedUntil: number;
  /** A pass counts once however it failed (its push failed, then its schedule threw): one step of backoff. */
  pausedThisPass: boolean;
  pass: SyncPass;
}

export type PushResult = 'done' | 'unreachable' | 'unrecorded';

export type SyncEvent =
  /** start(): the first timed pull at a random point of the period (a pull runs at start anyway). */
  | { type: 'START'; firstPullAt: number }
  | { type: 'STOP' }
  /** A local command queued something. */
  | { type: 'KICK' }
  /** The site changed on the server (the event stream). */
  | { type: 'PULL_SOON' }
  | { type: 'SYNC_NOW' }
  | { type: 'LINK_UP' }
  | { type: 'REVOKED' }
  | { type: 'RETRY_TIMER_FIRED' }
  /** The timed pull; the next one a jittered period from now. */
  | { type: 'PULL_TIMER_FIRED'; nextPullAt: number }
  /** The guarded loop runs a pass (holding the lock): the device's link as it is now. */
  | { type: 'PASS_BEGAN'; at: number; hasLink: boolean }
  | { type: 'BACKOFF_RESET'; at: number }
  | { type: 'PUSHED'; result: PushResult }
  /** The backoff drawn for DRAW_PAUSE's failures, at the time it was drawn. */
  | { type: 'PAUSE_DRAWN'; at: number; delayMs: number }
  | { type: 'PULLED'; result: PullResult }
  /** The queue's earliest due retry (undefined: nothing waits to be sent). */
  | { type: 'SCHEDULED'; retryAt: number | undefined }
  /** The work under way threw (the device's storage failing under the push, the pull or the schedule). */
  | { type: 'PASS_THREW' };

export type SyncEffect =
  /** Follow the device's link (LINK_UP) and the revocation (REVOKED). */
  | { type: 'LISTEN' }
  | { type: 'UNLISTEN' }
  /** Ask the guarded loop for a pass (one more after the running one, never two at once). */
  | { type: 'REQUEST_PASS' }
  | { type: 'RESET_NETWORK_BACKOFF' }
  | { type: 'PUSH' }
  /** Draw the backoff after `failures` failed passes in a row (the retry policy's jitter) and report it. */
  | { type: 'DRAW_PAUSE'; failures: number }
  | { type: 'PULL'; part: PullPart }
  /** Read when the queue's next retry is due. */
  | { type: 'SCHEDULE' }
  | { type: 'SET_RETRY_TIMER'; at: number }
  | { type: 'CANCEL_RETRY_TIMER' }
  | { type: 'SET_PULL_TIMER'; at: number }
  | { type: 'CANCEL_PULL_TIMER' }
  | { type: 'END_PASS' }
  /** The pass ends with the error it threw (the loop reports it). */
  | { type: 'FAIL_PASS' };

export interface SyncStep {
  state: SyncState;
  effects: SyncEffect[];
}

export function initialSyncState(): SyncState {
  return {
    life: 'new',
    revoked: false,
    pullWanted: true,
    backoffReset: false,
    failedPasses: 0,
    pausedUntil: 0,
    pausedThisPass: false,
    pass: { at: 'none' },
  };
}

/** Stopped, not started yet, or revoked: the engine starts no work and sets no timer. */
export const isHalted = (state: SyncState): boolean => state.life !== 'running' || state.revoked;

const endPass = (state: SyncState): SyncStep => ({
  state: { ...state, pass: { at: 'none' } },
  effects: [{ type: 'END_PASS' }],
});

function schedule(state: SyncState): SyncStep {
  if (isHalted(state)) return endPass(state);
  return { state: { ...state, pass: { at: 'scheduling' } }, effects: [{ type: 'SCHEDULE' }] };
}

/** Pushes unless the queue is paused; a pause further away than the longest backoff is over (the clock was set back). */
function pushUnlessPaused(state: SyncState, at: number, settings: SyncSettings): SyncStep {
  const pausedUntil = state.pausedUntil - at > settings.capMs ? 0 : state.pausedUntil;
  if (at < pausedUntil) return schedule({ ...state, pausedUntil });
  return { state: { ...state, pausedUntil, pass: { at: 'pushing' } }, effects: [{ type: 'PUSH' }] };
}

/** A failed pass ends: the timer brings the next pass when the pause ends; the loop reports the error. */
function failPass(state: SyncState): SyncStep {
  const ended = { ...state, pass: { at: 'none' } as const };
  if (isHalted(state)) return { state: ended, effects: [{ type: 'FAIL_PASS' }] };
  return { state: ended, effects: [{ type: 'SET_RETRY_TIMER', at: state.pausedUntil }, { type: 'FAIL_PASS' }] };
}

/** One more failed pass in a row (once per pass): the whole queue waits a longer backoff, drawn by the driver. */
function pauseQueue(state: SyncState, then: 'schedule' | 'fail'): SyncStep {
  if (state.pausedThisPass) return then === 'schedule' ? schedule(state) : failPass(state);
  const failedPasses = state.failedPasses + 1;
  return {
    state: { ...state, pausedThisPass: true, failedPasses, pass: { at: 'pausing', then } },
    effects: [{ type: 'DRAW_PAUSE', failures: failedPasses }],
  };
}

/** The pull's next part, or the pull's end: wanted again unless every part completed. */
function pullOn(state: SyncState, rest: readonly PullPart[], allPulled: boolean): SyncStep {
  const [part, ...after] = rest;
  if (part !== undefined && !isHalted(state))
    return { state: { ...state, pass: { at: 'pulling', rest: after, allPulled } }, effects: [{ type: 'PULL', part }] };
  // Set again unless it completed, so a pull that failed goes with the next pass, not the timer's.
  return schedule(allPulled && part === undefined ? state : { ...state, pullWanted: true });
}

function pushed(state: SyncState, result: PushResult, settings: SyncSettings): SyncStep {
  // Revoked while pushing (a 401): the pass ends here. Stopped: its answers are written, nothing more starts.
  if (isHalted(state)) return endPass(state);
  if (result !== 'done') return pauseQueue(state, 'schedule');
  const cleared = { ...state, failedPasses: 0, pausedUntil: 0 };
  // Not gated on the last answer: with nothing queued, a pull is what finds the server back. (Not after a
  // failed pass: the server is away, or the storage the pull writes to is failing.) Cleared before it runs,
  // so a pull asked for while this one runs is not lost.
  if (!cleared.pullWanted) return schedule(cleared);
  return pullOn({ ...cleared, pullWanted: false }, PULL_PARTS[settings.mode], true);
}

/**
 * The queue's next retry, or (a pull still wanted waits for the pause as the queue does) the pause's end: the
 * timer may have woken this pass a moment before the pause ended, as timers can fire a millisecond early by
 * the wall clock, and then this is what brings the pull. Never before the pause ends.
 */
function scheduled(state: SyncState, queueRetryAt: number | undefined): SyncStep {
  if (isHalted(state)) return endPass(state);
  const retryAt = queueRetryAt ?? (state.pullWanted && state.pausedUntil > 0 ? state.pausedUntil : undefined);
  const ended = endPass(state);
  const timer: SyncEffect =
    retryAt === undefined
      ? { type: 'CANCEL_RETRY_TIMER' }
      : { type: 'SET_RETRY_TIMER', at: Math.max(retryAt, state.pausedUntil) };
  return { state: ended.state, effects: [timer, ...ended.effects] };
}

/** Events of the pass under way; one that does not fit where the pass is changes nothing. */
function nextInPass(state: SyncState, event: SyncEvent, settings: SyncSettings): SyncStep {
  const { pass } = state;
  const unchanged: SyncStep = { state, effects: [] };
  switch (event.type) {
    case 'PASS_BEGAN': {
      if (pass.at !== 'none') return unchanged;
      const begun = { ...state, pausedThisPass: false };
      // Without a link every request fails at once; waiting costs nothing and keeps the backoff short.
      if (isHalted(begun) || !event.hasLink) return endPass(begun);
      if (!begun.backoffReset) return pushUnlessPaused(begun, event.at, settings);
      return {
        state: { ...begun, backoffReset: false, failedPasses: 0, pausedUntil: 0, pass: { at: 'resettingBackoff' } },
        effects: [{ type: 'RESET_NETWORK_BACKOFF' }],
      };
    }
    case 'BACKOFF_RESET':
      if (pass.at !== 'resettingBackoff') return unchanged;
      return isHalted(state) ? endPass(state) : pushUnlessPaused(state, event.at, settings);
    case 'PUSHED':
      return pass.at === 'pushing' ? pushed(state, event.result, settings) : unchanged;
    case 'PAUSE_DRAWN': {
      if (pass.at !== 'pausing') return unchanged;
      const until = event.at + event.delayMs;
      // A pass that fails during a pause (a kick) does not shorten it, as the jitter could; a pause beyond
      // the cap is over (the device clock was set back).
      const pausedUntil = state.pausedUntil - event.at > settings.capMs ? until : Math.max(state.pausedUntil, until);
      const paused = { ...state, pausedUntil };
      return pass.then === 'schedule' ? schedule(paused) : failPass(paused);
    }
    case 'PULLED':
      return pass.at === 'pulling' ? pullOn(state, pass.rest, pass.allPulled && event.result === 'pulled') : unchanged;
    case 'SCHEDULED':
      return pass.at === 'scheduling' ? scheduled(state, event.retryAt) : unchanged;
    case 'PASS_THREW': {
      if (pass.at === 'none' || pass.at === 'pausing') return unchanged;
      // A pass that threw is a failed pass: otherwise nothing would bring the queue back but an unrelated
      // trigger, and every kick would try again at once. A pull that threw is still wanted: it goes with the
      // pass that ends the pause, not minutes later with the timed pull.
      const threw = pass.at === 'pulling' ? { ...state, pullWanted: true } : state;
      return isHalted(threw) ? failPass(threw) : pauseQueue(threw, 'fail');
    }
    default:
      return unchanged;
  }
}

/** The engine's next state after `event`, and what the driver must do, in order. */
export function nextSync(state: SyncState, event: SyncEvent, settings: SyncSettings): SyncStep {
  const unchanged: SyncStep = { state, effects: [] };
  const halted = isHalted(state);
  switch (event.type) {
    case 'START':
      if (state.life !== 'new') return unchanged;
      return {
        state: { ...state, life: 'running', pullWanted: true },
        effects: [{ type: 'LISTEN' }, { type: 'SET_PULL_TIMER', at: event.firstPullAt }, { type: 'REQUEST_PASS' }],
      };
    case 'STOP': {
      // The pass under way still ends (its in-flight answers are written down); nothing starts after it.
      const life = state.life === 'new' ? 'new' : 'stopped';
      const unlisten: SyncEffect = { type: 'UNLISTEN' };
      if (state.revoked) return { state: { ...state, life }, effects: [unlisten] };
      return {
        state: { ...state, life },
        effects: [unlisten, { type: 'CANCEL_RETRY_TIMER' }, { type: 'CANCEL_PULL_TIMER' }],
      };
    }
    case 'REVOKED':
      // Revoked, the engine stops for good: the outbox is kept as it is, and the kiosk opened for the new
      // pairing sends it.
      if (state.revoked) return unchanged;
      return {
        state: { ...state, revoked: true },
        effects: halted ? [] : [{ type: 'CANCEL_RETRY_TIMER' }, { type: 'CANCEL_PULL_TIMER' }],
      };
    case 'KICK':
    case 'RETRY_TIMER_FIRED':
      return halted ? unchanged : { state, effects: [{ type: 'REQUEST_PASS' }] };
    case 'PULL_SOON':
    case 'SYNC_NOW':
      return halted ? unchanged : { state: { ...state, pullWanted: true }, effects: [{ type: 'REQUEST_PASS' }] };
    case 'LINK_UP':
      // Back online: what failed for want of a network goes now, not after its backoff.
      if (halted) return unchanged;
      return { state: { ...state, backoffReset: true, pullWanted: true }, effects: [{ type: 'REQUEST_PASS' }] };
    case 'PULL_TIMER_FIRED':
      if (halted) return unchanged;
      return {
        state: { ...state, pullWanted: true },
        effects: [{ type: 'REQUEST_PASS' }, { type: 'SET_PULL_TIMER', at: event.nextPullAt }],
      };
    default:
      return nextInPass(state, event, settings);
  }
}
