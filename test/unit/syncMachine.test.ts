import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { fullJitterBackoff } from '../../kiosk/src/sync/backoff';
import {
  PULL_PARTS,
  type SyncEffect,
  type SyncEvent,
  type SyncSettings,
  type SyncState,
  initialSyncState,
  isHalted,
  nextSync,
} from '../../kiosk/src/sync/syncMachine';

const CAP = 60_000;
const CLEANUP = ['UNLISTEN', 'CANCEL_RETRY_TIMER', 'CANCEL_PULL_TIMER', 'END_PASS', 'FAIL_PASS'];

/**
 * What the driver (engine.ts) would have under way after the effects so far: the timers, the loop's request,
 * the pass and its one I/O step. The property tests let fast-check pick what happens next and when.
 */
interface World {
  state: SyncState;
  settings: SyncSettings;
  now: number;
  /** The backoff's next random draw. */
  draw: number;
  listening: boolean;
  retryTimerAt: number | undefined;
  pullTimerAt: number | undefined;
  passWanted: boolean;
  passRunning: boolean;
  work: 'reset' | 'push' | 'pull' | 'schedule' | undefined;
  threw: boolean;
  pulled: string[];
  allPulled: boolean;
  drawsThisPass: number;
  /** Pulls asked for (counted), the asks the running pull answers, the asks a completed pull answered. */
  asks: number;
  pullCovers: number;
  covered: number;
  queue: SyncEvent[];
}

const begin = (mode: SyncSettings['mode']): World => ({
  state: initialSyncState(),
  settings: { mode, capMs: CAP },
  now: Date.UTC(2026, 10, 29, 9),
  draw: 0.5,
  listening: false,
  retryTimerAt: undefined,
  pullTimerAt: undefined,
  passWanted: false,
  passRunning: false,
  work: undefined,
  threw: false,
  pulled: [],
  allPulled: true,
  drawsThisPass: 0,
  asks: 0,
  pullCovers: 0,
  covered: 0,
  queue: [],
});

function startWork(world: World, work: NonNullable<World['work']>, at: SyncState['pass']['at']): void {
  expect(world.passRunning, `${work} only within a pass`).toBe(true);
  expect(world.work, 'one step of a pass at a time').toBeUndefined();
  expect(world.state.pass.at).toBe(at);
  world.work = work;
}

function apply(world: World, effects: SyncEffect[]): void {
  const { state } = world;
  for (const effect of effects) {
    switch (effect.type) {
      case 'LISTEN':
        expect(world.listening).toBe(false);
        world.listening = true;
        break;
      case 'UNLISTEN':
        world.listening = false;
        break;
      case 'REQUEST_PASS':
        world.passWanted = true;
        break;
      case 'RESET_NETWORK_BACKOFF':
        startWork(world, 'reset', 'resettingBackoff');
        break;
      case 'PUSH':
        startWork(world, 'push', 'pushing');
        break;
      case 'PULL':
        startWork(world, 'pull', 'pulling');
        if (world.pulled.length === 0) world.pullCovers = world.asks;
        world.pulled.push(effect.part);
        // A gate pulls no people, a visitor kiosk no vehicles: each its own parts, in order.
        expect(PULL_PARTS[world.settings.mode].slice(0, world.pulled.length)).toEqual(world.pulled);
        break;
      case 'SCHEDULE':
        startWork(world, 'schedule', 'scheduling');
        break;
      case 'DRAW_PAUSE': {
        expect(world.work).toBeUndefined();
        world.drawsThisPass += 1;
        expect(world.drawsThisPass, 'a pass counts once however it failed').toBe(1);
        const delayMs = fullJitterBackoff({ capMs: CAP, random: () => world.draw }).delayMs(effect.failures, undefined);
        world.queue.push({ type: 'PAUSE_DRAWN', at: world.now, delayMs });
        break;
      }
      case 'SET_RETRY_TIMER':
        expect(effect.at, 'never before the pause ends').toBeGreaterThanOrEqual(state.pausedUntil);
        world.retryTimerAt = effect.at;
        break;
      case 'CANCEL_RETRY_TIMER':
        world.retryTimerAt = undefined;
        break;
      case 'SET_PULL_TIMER':
        world.pullTimerAt = effect.at;
        break;
      case 'CANCEL_PULL_TIMER':
        world.pullTimerAt = undefined;
        break;
      case 'END_PASS':
      case 'FAIL_PASS':
        expect(world.passRunning).toBe(true);
        expect(world.work).toBeUndefined();
        expect(state.pass.at).toBe('none');
        expect(effect.type === 'FAIL_PASS', 'a pass fails when it threw, and only then').toBe(world.threw);
        // A failed pass has its way back: the timer at the pause's end.
        if (effect.type === 'FAIL_PASS' && !isHalted(state)) expect(world.retryTimerAt).toBe(state.pausedUntil);
        world.passRunning = false;
        break;
    }
  }
}

const eventAt = (event: SyncEvent) => ('at' in event ? event.at : undefined);

/** What must hold of one step, whatever came before. */
function checkStep(world: World, before: SyncState, event: SyncEvent, effects: SyncEffect[]): void {
  const after = world.state;
  const types = effects.map((effect) => effect.type);
  const at = eventAt(event);
  if (before.revoked) expect(types.every((type) => ['UNLISTEN', 'END_PASS', 'FAIL_PASS'].includes(type))).toBe(true);
  if (isHalted(before) && event.type !== 'START') expect(types.every((type) => CLEANUP.includes(type))).toBe(true);
  // No push while paused, unless the pause is further away than the cap (the clock was set back).
  if (types.includes('PUSH')) {
    if (at === undefined) throw new Error(`a push decided without the time, on ${event.type}`);
    expect(before.pausedUntil <= at || before.pausedUntil - at > CAP).toBe(true);
  }
  if (event.type === 'PASS_BEGAN' && event.hasLink && !isHalted(before) && !before.backoffReset)
    expect(types.includes('PUSH')).toBe(before.pausedUntil <= event.at || before.pausedUntil - event.at > CAP);
  const resetByLink = event.type === 'PASS_BEGAN' && before.backoffReset;
  const succeeded = event.type === 'PUSHED' && event.result === 'done';
  // A pause is never shortened, but by a pass that pushed, by coming back online, or when the clock was set back.
  if (after.pausedUntil < before.pausedUntil)
    expect(
      ((succeeded || resetByLink) && after.pausedUntil === 0) || (at !== undefined && before.pausedUntil - at > CAP),
    ).toBe(true);
  // Failed passes only grow, one a pass, until a pass pushes everything or the link comes back.
  if (after.failedPasses < before.failedPasses)
    expect(after.failedPasses === 0 && (succeeded || resetByLink)).toBe(true);
  if (after.failedPasses > before.failedPasses) {
    expect(after.failedPasses).toBe(before.failedPasses + 1);
    expect(effects).toContainEqual({ type: 'DRAW_PAUSE', failures: after.failedPasses });
  }
}

function send(world: World, first: SyncEvent): void {
  world.queue.push(first);
  for (let event = world.queue.shift(); event !== undefined; event = world.queue.shift()) {
    const before = world.state;
    const askable = ['PULL_SOON', 'SYNC_NOW', 'LINK_UP', 'PULL_TIMER_FIRED'].includes(event.type) && !isHalted(before);
    if (askable || (event.type === 'START' && before.life === 'new')) world.asks += 1;
    const step = nextSync(before, event, world.settings);
    world.state = step.state;
    checkStep(world, before, event, step.effects);
    apply(world, step.effects);
  }
}

/** What must hold between events. */
function checkInvariants(world: World): void {
  const { state } = world;
  if (isHalted(state)) {
    expect(world.retryTimerAt, 'a halted engine sets no timer').toBeUndefined();
    expect(world.pullTimerAt).toBeUndefined();
    return;
  }
  expect(world.pullTimerAt, 'the timed pull is always armed while running').toBeDefined();
  // A pull asked for is never lost before a pull that began after the ask has completed.
  if (world.asks > world.covered)
    expect(state.pullWanted || (state.pass.at === 'pulling' && world.pullCovers === world.asks)).toBe(true);
  expect(state.pass.at === 'none').toBe(!world.passRunning);
  if (world.passRunning) expect(world.work, 'a running pass always waits for one step').toBeDefined();
}

/** Ends the step under way: as the choice says, or as a throw. */
function endWork(world: World, choice: number, ms: number, fail: boolean): void {
  const work = world.work;
  if (work === undefined) return;
  world.work = undefined;
  if (fail) {
    world.threw = true;
    return send(world, { type: 'PASS_THREW' });
  }
  if (work === 'reset') return send(world, { type: 'BACKOFF_RESET', at: world.now });
  if (work === 'push')
    return send(world, {
      type: 'PUSHED',
      result: (['done', 'unreachable', 'unrecorded'] as const)[choice % 3] ?? 'done',
    });
  if (work === 'schedule')
    return send(world, { type: 'SCHEDULED', retryAt: choice % 2 === 0 ? undefined : world.now + (ms % (CAP + 1)) });
  const result = choice % 4 === 3 ? 'failed' : 'pulled';
  world.allPulled &&= result === 'pulled';
  if (world.allPulled && world.pulled.length === PULL_PARTS[world.settings.mode].length)
    world.covered = world.pullCovers;
  send(world, { type: 'PULLED', result });
}

function beginPass(world: World, hasLink: boolean): void {
  if (!world.passWanted || world.passRunning) return;
  Object.assign(world, {
    passWanted: false,
    passRunning: true,
    threw: false,
    pulled: [],
    allPulled: true,
    drawsThisPass: 0,
  });
  send(world, { type: 'PASS_BEGAN', at: world.now, hasLink });
}

/** A timer fires: at its time, a few milliseconds early, or (the clock was set back meanwhile) whenever. */
function fire(world: World, at: number, choice: number): void {
  if (choice % 3 !== 0) world.now = Math.max(world.now, at - (choice % 6));
}

type Happening = (world: World, choice: number, ms: number) => void;
const weighted = (weight: number, arbitrary: Happening) => ({ weight, arbitrary: fc.constant(arbitrary) });

function fireRetryTimer(world: World, choice: number): void {
  const at = world.retryTimerAt;
  if (at === undefined) return;
  world.retryTimerAt = undefined;
  fire(world, at, choice);
  send(world, { type: 'RETRY_TIMER_FIRED' });
}

function firePullTimer(world: World, choice: number, ms: number): void {
  const at = world.pullTimerAt;
  if (at === undefined) return;
  world.pullTimerAt = undefined;
  fire(world, at, choice);
  send(world, { type: 'PULL_TIMER_FIRED', nextPullAt: world.now + 270_000 + (ms % 60_000) });
}

// Revocations and stops are rare: most runs stay running long enough to exercise the passes.
const happenings = fc.oneof(
  weighted(12, (world, choice, ms) => endWork(world, choice, ms, false)),
  weighted(3, (world, choice, ms) => endWork(world, choice, ms, true)),
  weighted(8, (world, choice) => beginPass(world, choice % 5 !== 0)),
  // Time goes on: mostly less than a pause lasts, sometimes long past it, now and then set back.
  weighted(5, (world, _choice, ms) => {
    world.now += ms % 1_000;
  }),
  weighted(1, (world, _choice, ms) => {
    world.now += ms;
  }),
  weighted(1, (world, _choice, ms) => {
    world.now -= 10 * ms;
  }),
  weighted(3, (world) => send(world, { type: 'KICK' })),
  weighted(2, (world) => send(world, { type: 'PULL_SOON' })),
  weighted(1, (world) => send(world, { type: 'SYNC_NOW' })),
  weighted(2, (world) => {
    if (world.listening) send(world, { type: 'LINK_UP' });
  }),
  weighted(1, (world, choice) => {
    if (world.listening && choice % 8 === 0) send(world, { type: 'REVOKED' });
  }),
  weighted(1, (world, choice) => {
    if (choice % 8 === 0) send(world, { type: 'STOP' });
  }),
  weighted(1, (world, _choice, ms) => send(world, { type: 'START', firstPullAt: world.now + ms })),
  weighted(4, fireRetryTimer),
  weighted(2, firePullTimer),
);

const history = fc.array(
  fc.record({
    happen: happenings,
    choice: fc.nat(),
    ms: fc.nat({ max: 90_000 }),
    draw: fc.double({ min: 0, max: 1, maxExcluded: true, noNaN: true }),
  }),
  { maxLength: 200, size: 'max' },
);

describe("the kiosk sync engine's decisions, as a value (sync/syncMachine.ts)", () => {
  it('keeps its rules whatever happens and in whatever order, and every pass ends', () => {
    fc.assert(
      fc.property(fc.constantFrom('visitor' as const, 'gate' as const), history, (mode, steps) => {
        const world = begin(mode);
        send(world, { type: 'START', firstPullAt: world.now + 1_000 });
        checkInvariants(world);
        for (const { happen, choice, ms, draw } of steps) {
          world.draw = draw;
          happen(world, choice, ms);
          checkInvariants(world);
        }
        // Then nothing new happens: the pass under way, and the ones asked for, come to an end.
        for (let guard = 0; world.passRunning || (world.passWanted && !isHalted(world.state)); guard += 1) {
          expect(guard, 'passes come to an end').toBeLessThan(50);
          if (world.passRunning) endWork(world, 0, 0, false);
          else beginPass(world, true);
          checkInvariants(world);
        }
        expect(world.state.pass.at).toBe('none');
        if (!isHalted(world.state) && world.asks > world.covered) expect(world.state.pullWanted).toBe(true);
      }),
      { numRuns: 300 },
    );
  });
});
