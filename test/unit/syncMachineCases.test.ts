import { describe, expect, it } from 'vitest';
import {
  type SyncEffect,
  type SyncEvent,
  type SyncSettings,
  type SyncState,
  initialSyncState,
  nextSync,
} from '../../kiosk/src/sync/syncMachine';

/**
 * The subtle cases of the kiosk's sync engine, one example each (the properties over any history are in
 * syncMachine.test.ts): the machine started, then fed the events the driver would report.
 */
const CAP = 60_000;
const T = 1_000_000;

function started(mode: SyncSettings['mode'] = 'visitor') {
  const settings: SyncSettings = { mode, capMs: CAP };
  let state = initialSyncState();
  const send = (event: SyncEvent): SyncEffect[] => {
    const step = nextSync(state, event, settings);
    state = step.state;
    return step.effects;
  };
  expect(send({ type: 'START', firstPullAt: T + 200_000 })).toEqual([
    { type: 'LISTEN' },
    { type: 'SET_PULL_TIMER', at: T + 200_000 },
    { type: 'REQUEST_PASS' },
  ]);
  return {
    send,
    state: () => state,
    set: (change: Partial<SyncState>) => {
      state = { ...state, ...change };
    },
  };
}

const types = (effects: SyncEffect[]) => effects.map((effect) => effect.type);
const pull = (part: string) => [{ type: 'PULL', part }];
const scheduled = (retryAt: number | undefined): SyncEvent => ({ type: 'SCHEDULED', retryAt });

describe('the sync engine, case by case (sync/syncMachine.ts)', () => {
  it('does not shorten a pause by a kick: its pass does not push, and a failure in it keeps the longer pause', () => {
    const engine = started();
    engine.set({ failedPasses: 3, pausedUntil: T + 4_000 });
    expect(engine.send({ type: 'KICK' })).toEqual([{ type: 'REQUEST_PASS' }]);
    expect(types(engine.send({ type: 'PASS_BEGAN', at: T + 1_000, hasLink: true }))).toEqual(['SCHEDULE']);
    // The queue's own retry is due sooner: the timer still waits for the pause.
    expect(engine.send(scheduled(T + 1_500))).toEqual([
      { type: 'SET_RETRY_TIMER', at: T + 4_000 },
      { type: 'END_PASS' },
    ]);
    // The next kick's pass throws; its backoff, drawn short, would end the pause early.
    engine.send({ type: 'PASS_BEGAN', at: T + 2_000, hasLink: true });
    expect(engine.send({ type: 'PASS_THREW' })).toEqual([{ type: 'DRAW_PAUSE', failures: 4 }]);
    expect(engine.send({ type: 'PAUSE_DRAWN', at: T + 2_000, delayMs: 100 })).toEqual([
      { type: 'SET_RETRY_TIMER', at: T + 4_000 },
      { type: 'FAIL_PASS' },
    ]);
    expect(engine.state()).toMatchObject({ failedPasses: 4, pausedUntil: T + 4_000 });
    expect(types(engine.send({ type: 'PASS_BEGAN', at: T + 4_000, hasLink: true }))).toEqual(['PUSH']);
  });

  it('takes a pause beyond the cap for a clock set back: it is over', () => {
    const engine = started();
    engine.set({ failedPasses: 2, pausedUntil: T + CAP + 5_000 });
    expect(types(engine.send({ type: 'PASS_BEGAN', at: T, hasLink: true }))).toEqual(['PUSH']);
    expect(engine.state().pausedUntil).toBe(0);
    // A failure drawn while such a pause stands replaces it, rather than keeping the later one.
    engine.set({ pausedUntil: T + CAP + 5_000 });
    expect(engine.send({ type: 'PUSHED', result: 'unreachable' })).toEqual([{ type: 'DRAW_PAUSE', failures: 3 }]);
    expect(engine.send({ type: 'PAUSE_DRAWN', at: T, delayMs: 1_000 })).toEqual([{ type: 'SCHEDULE' }]);
    expect(engine.state().pausedUntil).toBe(T + 1_000);
  });

  it('does not lose a pull asked for while a pull runs', () => {
    const engine = started();
    engine.send({ type: 'PASS_BEGAN', at: T, hasLink: true });
    expect(engine.send({ type: 'PUSHED', result: 'done' })).toEqual(pull('people'));
    expect(engine.state().pullWanted).toBe(false);
    expect(engine.send({ type: 'PULL_SOON' })).toEqual([{ type: 'REQUEST_PASS' }]);
    expect(engine.send({ type: 'PULLED', result: 'pulled' })).toEqual(pull('watchlistDigest'));
    expect(engine.send({ type: 'PULLED', result: 'pulled' })).toEqual(pull('sitePasses'));
    expect(engine.send({ type: 'PULLED', result: 'pulled' })).toEqual([{ type: 'SCHEDULE' }]);
    expect(engine.state().pullWanted).toBe(true);
    engine.send(scheduled(undefined));
    engine.send({ type: 'PASS_BEGAN', at: T + 10, hasLink: true });
    expect(engine.send({ type: 'PUSHED', result: 'done' })).toEqual(pull('people'));
  });

  it('pulls again with the next pass when a pull failed', () => {
    const engine = started();
    engine.send({ type: 'PASS_BEGAN', at: T, hasLink: true });
    engine.send({ type: 'PUSHED', result: 'done' });
    // The other parts still go; the pull as a whole is wanted again.
    expect(engine.send({ type: 'PULLED', result: 'failed' })).toEqual(pull('watchlistDigest'));
    engine.send({ type: 'PULLED', result: 'pulled' });
    expect(engine.send({ type: 'PULLED', result: 'pulled' })).toEqual([{ type: 'SCHEDULE' }]);
    expect(engine.state().pullWanted).toBe(true);
    expect(engine.send(scheduled(undefined))).toEqual([{ type: 'CANCEL_RETRY_TIMER' }, { type: 'END_PASS' }]);
    engine.send({ type: 'KICK' });
    engine.send({ type: 'PASS_BEGAN', at: T + 10, hasLink: true });
    expect(engine.send({ type: 'PUSHED', result: 'done' })).toEqual(pull('people'));
  });

  it('pulls with the pass that ends the pause when a pull threw, even when its timer fires a little early', () => {
    const engine = started();
    engine.send({ type: 'PASS_BEGAN', at: T, hasLink: true });
    engine.send({ type: 'PUSHED', result: 'done' });
    expect(engine.send({ type: 'PASS_THREW' })).toEqual([{ type: 'DRAW_PAUSE', failures: 1 }]);
    expect(engine.send({ type: 'PAUSE_DRAWN', at: T, delayMs: 500 })).toEqual([
      { type: 'SET_RETRY_TIMER', at: T + 500 },
      { type: 'FAIL_PASS' },
    ]);
    expect(engine.send({ type: 'RETRY_TIMER_FIRED' })).toEqual([{ type: 'REQUEST_PASS' }]);
    // Woken 5 ms early: the queue is still paused, and nothing is queued; the pull still wanted sets the timer.
    expect(types(engine.send({ type: 'PASS_BEGAN', at: T + 495, hasLink: true }))).toEqual(['SCHEDULE']);
    expect(engine.send(scheduled(undefined))).toEqual([{ type: 'SET_RETRY_TIMER', at: T + 500 }, { type: 'END_PASS' }]);
    engine.send({ type: 'RETRY_TIMER_FIRED' });
    expect(types(engine.send({ type: 'PASS_BEGAN', at: T + 500, hasLink: true }))).toEqual(['PUSH']);
    expect(engine.send({ type: 'PUSHED', result: 'done' })).toEqual(pull('people'));
    expect(engine.state()).toMatchObject({ failedPasses: 0, pausedUntil: 0 });
  });

  it('counts a pass once however it failed: a failed push, then a schedule that threw', () => {
    const engine = started();
    engine.send({ type: 'PASS_BEGAN', at: T, hasLink: true });
    expect(engine.send({ type: 'PUSHED', result: 'unreachable' })).toEqual([{ type: 'DRAW_PAUSE', failures: 1 }]);
    expect(engine.send({ type: 'PAUSE_DRAWN', at: T, delayMs: 500 })).toEqual([{ type: 'SCHEDULE' }]);
    expect(engine.send({ type: 'PASS_THREW' })).toEqual([
      { type: 'SET_RETRY_TIMER', at: T + 500 },
      { type: 'FAIL_PASS' },
    ]);
    expect(engine.state()).toMatchObject({ failedPasses: 1, pausedUntil: T + 500 });
    // The next pass that fails is the second in a row.
    engine.send({ type: 'PASS_BEGAN', at: T + 500, hasLink: true });
    expect(engine.send({ type: 'PUSHED', result: 'unrecorded' })).toEqual([{ type: 'DRAW_PAUSE', failures: 2 }]);
  });

  it('halts everything once revoked: the pass under way ends, and nothing starts again', () => {
    const engine = started();
    engine.send({ type: 'PASS_BEGAN', at: T, hasLink: true });
    expect(engine.send({ type: 'REVOKED' })).toEqual([{ type: 'CANCEL_RETRY_TIMER' }, { type: 'CANCEL_PULL_TIMER' }]);
    // The pull is wanted (it always is at start), but the push met the 401: no pull, no schedule.
    expect(engine.send({ type: 'PUSHED', result: 'done' })).toEqual([{ type: 'END_PASS' }]);
    const triggers: SyncEvent[] = [
      { type: 'KICK' },
      { type: 'PULL_SOON' },
      { type: 'SYNC_NOW' },
      { type: 'LINK_UP' },
      { type: 'RETRY_TIMER_FIRED' },
      { type: 'PULL_TIMER_FIRED', nextPullAt: T + 300_000 },
      { type: 'START', firstPullAt: T },
    ];
    for (const trigger of triggers) expect(engine.send(trigger)).toEqual([]);
    expect(engine.send({ type: 'PASS_BEGAN', at: T, hasLink: true })).toEqual([{ type: 'END_PASS' }]);
    expect(engine.send({ type: 'STOP' })).toEqual([{ type: 'UNLISTEN' }]);
  });

  it('lets a stopped pass end with what it was doing, and starts nothing after it', () => {
    const engine = started();
    engine.send({ type: 'PASS_BEGAN', at: T, hasLink: true });
    expect(types(engine.send({ type: 'STOP' }))).toEqual(['UNLISTEN', 'CANCEL_RETRY_TIMER', 'CANCEL_PULL_TIMER']);
    expect(engine.send({ type: 'PUSHED', result: 'done' })).toEqual([{ type: 'END_PASS' }]);
    expect(engine.send({ type: 'KICK' })).toEqual([]);
    expect(engine.send({ type: 'START', firstPullAt: T })).toEqual([]);
  });

  it('pulls no people at a gate: the vehicles on site and the registered vehicles', () => {
    const engine = started('gate');
    engine.send({ type: 'PASS_BEGAN', at: T, hasLink: true });
    expect(engine.send({ type: 'PUSHED', result: 'done' })).toEqual(pull('vehicles'));
    expect(engine.send({ type: 'PULLED', result: 'pulled' })).toEqual(pull('vehicleDirectory'));
    expect(engine.send({ type: 'PULLED', result: 'pulled' })).toEqual([{ type: 'SCHEDULE' }]);
    expect(engine.state().pullWanted).toBe(false);
  });

  it('resets the backoff when the link comes back, and pushes at once though the queue was paused', () => {
    const engine = started();
    engine.set({ failedPasses: 4, pausedUntil: T + 30_000 });
    expect(engine.send({ type: 'LINK_UP' })).toEqual([{ type: 'REQUEST_PASS' }]);
    // Without a link a pass does nothing, and keeps the reset for the pass that has one.
    expect(engine.send({ type: 'PASS_BEGAN', at: T, hasLink: false })).toEqual([{ type: 'END_PASS' }]);
    expect(engine.send({ type: 'PASS_BEGAN', at: T, hasLink: true })).toEqual([{ type: 'RESET_NETWORK_BACKOFF' }]);
    expect(engine.state()).toMatchObject({ failedPasses: 0, pausedUntil: 0, backoffReset: false });
    expect(engine.send({ type: 'BACKOFF_RESET', at: T + 5 })).toEqual([{ type: 'PUSH' }]);
  });

  it('pulls with every timed pull, and arms the next one', () => {
    const engine = started();
    engine.set({ pullWanted: false });
    expect(engine.send({ type: 'PULL_TIMER_FIRED', nextPullAt: T + 290_000 })).toEqual([
      { type: 'REQUEST_PASS' },
      { type: 'SET_PULL_TIMER', at: T + 290_000 },
    ]);
    expect(engine.state().pullWanted).toBe(true);
  });
});
