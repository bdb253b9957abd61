import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { AttemptRecord, ClaimedDelivery } from '../../server/src/webhooks/deliveryQueue';
import { sharesFor } from '../../server/src/webhooks/deliveryShares';
import {
  type DispatchEffect,
  type DispatchEvent,
  type DispatchSettings,
  type DispatchState,
  RECORD_BATCH,
  nextDispatch,
  startDispatch,
} from '../../server/src/webhooks/dispatchState';

const settingsFor = (concurrency: number): DispatchSettings => ({
  concurrency,
  pollMs: 500,
  timeoutMs: 10_000,
  batchSize: 200,
  ...sharesFor(concurrency),
});

/**
 * What the driver would have outstanding after the effects so far: the loop's statement or sleep, the
 * attempts, the records' timer and write. The property tests let fast-check pick which of them ends next.
 */
interface World {
  state: DispatchState;
  settings: DispatchSettings;
  loopCall: 'FAN_OUT' | 'CLAIM' | undefined;
  lease: number;
  room: number;
  sleeping: boolean;
  flushArmed: boolean;
  retries: number;
  attempts: ClaimedDelivery[];
  write: readonly AttemptRecord[] | undefined;
  written: AttemptRecord[];
  /** Every outcome an attempt reported. */
  recorded: AttemptRecord[];
  stopped: number;
  finalRounds: number;
  effectsAfterStopped: number;
  nextDelivery: number;
  now: number;
}

function apply(world: World, effects: DispatchEffect[]): void {
  for (const effect of effects) {
    if (world.stopped > 0) world.effectsAfterStopped += 1;
    switch (effect.type) {
      case 'FAN_OUT':
        expect(world.loopCall, 'one loop statement at a time').toBeUndefined();
        world.loopCall = 'FAN_OUT';
        world.lease = effect.lease;
        if (effect.final) world.finalRounds += 1;
        break;
      case 'CLAIM':
        expect(world.loopCall).toBeUndefined();
        world.loopCall = 'CLAIM';
        world.room = effect.room;
        break;
      case 'ATTEMPT':
        world.attempts.push(effect.delivery);
        break;
      case 'SLEEP':
        world.sleeping = true;
        break;
      case 'CANCEL_SLEEP':
        world.sleeping = false;
        break;
      case 'FLUSH_AFTER':
        expect(world.flushArmed, 'one records timer at a time').toBe(false);
        world.flushArmed = true;
        break;
      case 'CANCEL_FLUSH':
        world.flushArmed = false;
        break;
      case 'RETRY_FLUSH_AFTER':
        world.retries += 1;
        break;
      case 'WRITE':
        expect(world.write, 'one write of outcomes at a time').toBeUndefined();
        expect(effect.records.length).toBeGreaterThan(0);
        world.write = effect.records;
        break;
      case 'WARN':
        break;
      case 'STOPPED':
        world.stopped += 1;
        break;
    }
  }
}

function send(world: World, event: DispatchEvent): void {
  const step = nextDispatch(world.state, event, world.settings);
  world.state = step.state;
  apply(world, step.effects);
}

function deliveries(world: World, count: number, spread: number): ClaimedDelivery[] {
  return Array.from({ length: count }, () => {
    const id = (world.nextDelivery += 1);
    return {
      account_id: 1 + (id % spread),
      id,
      subscription_id: 1 + (id % (spread * 2)),
      event_id: `evt_${id}`,
      retry_step: 0,
      final_attempt: false,
      locked_until: new Date(0),
      url: 'https://example.com/hook',
      secret: 'whsec_x',
      body: '{}',
    };
  });
}

const record = (delivery: ClaimedDelivery): AttemptRecord => ({
  accountId: delivery.account_id,
  deliveryId: delivery.id,
  lease: '1970-01-01T00:00:00.000Z',
  attempted: false,
});

function begin(concurrency: number): World {
  const settings = settingsFor(concurrency);
  const first = startDispatch(settings);
  const world: World = {
    state: first.state,
    settings,
    loopCall: undefined,
    lease: 0,
    room: 0,
    sleeping: false,
    flushArmed: false,
    retries: 0,
    attempts: [],
    write: undefined,
    written: [],
    recorded: [],
    stopped: 0,
    finalRounds: 0,
    effectsAfterStopped: 0,
    nextDelivery: 0,
    now: 1_000_000,
  };
  apply(world, first.effects);
  return world;
}

const sum = (counts: ReadonlyMap<unknown, number>) => [...counts.values()].reduce((a, b) => a + b, 0);
const ids = (records: readonly AttemptRecord[]) => records.map((item) => item.deliveryId).sort((a, b) => a - b);

/** What must hold after every event, whatever the order things ended in. */
function checkInvariants(world: World): void {
  const { state, settings } = world;
  expect(state.inFlight).toBe(world.attempts.length);
  expect(state.inFlight).toBeLessThanOrEqual(settings.concurrency);
  expect(sum(state.accounts)).toBe(state.inFlight);
  expect(sum(state.subscriptions)).toBe(state.inFlight);
  // No outcome is lost or written twice: each is waiting, being written, or written.
  expect(ids([...state.pending, ...(world.write ?? []), ...world.written])).toEqual(ids(world.recorded));
  expect(world.effectsAfterStopped).toBe(0);
  expect(world.stopped).toBeLessThanOrEqual(1);
  expect(world.finalRounds).toBeLessThanOrEqual(1);
  const busy = (world.loopCall ? 1 : 0) + (world.sleeping ? 1 : 0);
  if (state.loop.at === 'fanning' || state.loop.at === 'claiming' || state.loop.at === 'sleeping')
    expect(busy, `the loop is ${state.loop.at}: one thing under way`).toBe(1);
  else expect(busy, `the loop is ${state.loop.at}: nothing under way`).toBe(0);
  if (!state.stopping) {
    expect(world.finalRounds).toBe(0);
    if (!world.write) expect(state.pending.length).toBeLessThan(RECORD_BATCH);
    // Waiting outcomes always have a way out: a timer, a write under way, or a retry.
    if (state.pending.length > 0) expect(world.flushArmed || world.write !== undefined || world.retries > 0).toBe(true);
  }
  if (world.stopped > 0) {
    expect(world.attempts).toHaveLength(0);
    expect(world.write).toBeUndefined();
    expect(world.finalRounds).toBe(1);
  }
}

/** One thing that can end now, chosen by `pick`; false when nothing is outstanding. */
function endSomething(world: World, pick: number, size: number, fail: boolean): boolean {
  const options: Array<() => void> = [];
  if (world.loopCall === 'FAN_OUT')
    options.push(() => {
      world.loopCall = undefined;
      if (fail) return send(world, { type: 'ROUND_FAILED', error: 'gone' });
      const leased = deliveries(world, Math.min(world.lease, size % 40), 1 + (size % 5));
      const events = size % 60;
      send(world, {
        type: 'FANNED_OUT',
        at: (world.now += size),
        events,
        deliveries: leased.length + (size % 3),
        leased,
      });
    });
  if (world.loopCall === 'CLAIM')
    options.push(() => {
      world.loopCall = undefined;
      if (fail) return send(world, { type: 'ROUND_FAILED', error: 'gone' });
      send(world, {
        type: 'CLAIMED',
        at: (world.now += size),
        claimed: deliveries(world, Math.min(world.room, size % 30), 3),
      });
    });
  if (world.sleeping)
    options.push(() => {
      world.sleeping = false;
      send(world, { type: 'WOKEN' });
    });
  if (world.attempts.length > 0)
    options.push(() => {
      const [delivery] = world.attempts.splice(size % world.attempts.length, 1);
      if (!delivery) return;
      const outcome = fail ? undefined : record(delivery);
      if (outcome) world.recorded.push(outcome);
      send(world, { type: 'ATTEMPT_ENDED', delivery, record: outcome });
    });
  if (world.flushArmed)
    options.push(() => {
      world.flushArmed = false;
      send(world, { type: 'FLUSH_DUE' });
    });
  if (world.retries > 0)
    options.push(() => {
      world.retries -= 1;
      send(world, { type: 'FLUSH_DUE' });
    });
  if (world.write)
    options.push(() => {
      const batch = world.write ?? [];
      world.write = undefined;
      if (fail) return send(world, { type: 'RECORDS_FAILED', error: 'gone' });
      world.written.push(...batch);
      send(world, { type: 'RECORDS_WRITTEN' });
    });
  const chosen = options[pick % Math.max(1, options.length)];
  chosen?.();
  return chosen !== undefined;
}

const steps = fc.array(fc.record({ pick: fc.nat(), size: fc.nat(), fail: fc.boolean(), stop: fc.boolean() }), {
  maxLength: 300,
});

describe("the webhook dispatcher's schedule, as a value (webhooks/dispatchState.ts)", () => {
  it('keeps its books whatever order statements, attempts, timers and writes end in, and stops clean', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 12 }), steps, (concurrency, sequence) => {
        const world = begin(concurrency);
        checkInvariants(world);
        for (const step of sequence) {
          // Stops are rare: most runs stay running long enough to exercise the loop.
          if (step.stop && step.pick % 20 === 0) send(world, { type: 'STOP' });
          else endSomething(world, step.pick, step.size, step.fail && step.size % 4 === 0);
          checkInvariants(world);
        }
        // Then stop, and let everything end as it would: the dispatcher must come to rest, stopped.
        send(world, { type: 'STOP' });
        checkInvariants(world);
        for (let guard = 0; world.stopped === 0; guard += 1) {
          expect(guard, 'stopping comes to an end').toBeLessThan(10_000);
          expect(endSomething(world, 0, guard, false), 'something is under way until stopped').toBe(true);
          checkInvariants(world);
        }
        expect(world.state.loop.at).toBe('stopped');
      }),
      { numRuns: 600 },
    );
  });

  it('starts with a round, and sleeps for a poll when a round found nothing', () => {
    const world = begin(8);
    expect(world.loopCall).toBe('FAN_OUT');
    world.loopCall = undefined;
    send(world, { type: 'FANNED_OUT', at: 1_000_000, events: 0, deliveries: 0, leased: [] });
    // The first round also looks for retries (none claimed yet), then sleeps.
    expect(world.loopCall).toBe('CLAIM');
    world.loopCall = undefined;
    send(world, { type: 'CLAIMED', at: 1_000_001, claimed: [] });
    expect(world.state.loop).toEqual({ at: 'sleeping', forSlots: false });
    expect(world.sleeping).toBe(true);
  });

  it('writes outcomes a batch at a time: at once at 100, else after a short wait', () => {
    const world = begin(128);
    world.loopCall = undefined;
    send(world, { type: 'FANNED_OUT', at: 1, events: 0, deliveries: 0, leased: deliveries(world, 100, 50) });
    const started = [...world.attempts];
    for (const delivery of started.slice(0, 99)) {
      world.attempts.splice(world.attempts.indexOf(delivery), 1);
      world.recorded.push(record(delivery));
      send(world, { type: 'ATTEMPT_ENDED', delivery, record: record(delivery) });
    }
    expect(world.flushArmed).toBe(true);
    expect(world.write).toBeUndefined();
    const last = started[99];
    if (!last) throw new Error('100 attempts started');
    world.attempts.splice(world.attempts.indexOf(last), 1);
    world.recorded.push(record(last));
    send(world, { type: 'ATTEMPT_ENDED', delivery: last, record: record(last) });
    expect(world.write).toHaveLength(100);
    expect(world.flushArmed).toBe(false);
  });

  it('looks again after a second when a round fails, and at once when a full share frees a slot', () => {
    const world = begin(4);
    world.loopCall = undefined;
    const step = nextDispatch(world.state, { type: 'ROUND_FAILED', error: 'down' }, world.settings);
    expect(step.effects).toContainEqual({ type: 'SLEEP', ms: 1_000 });
    world.state = step.state;
    world.sleeping = true;
    // One subscription at its share (1 of 4's): its attempt ending frees a full share, which wakes the loop.
    const [delivery] = deliveries(world, 1, 1);
    if (!delivery) throw new Error('one delivery');
    world.state = {
      ...world.state,
      inFlight: 1,
      accounts: new Map([[delivery.account_id, 1]]),
      subscriptions: new Map([[`${delivery.account_id}:${delivery.subscription_id}`, 1]]),
    };
    const woken = nextDispatch(world.state, { type: 'ATTEMPT_ENDED', delivery, record: undefined }, world.settings);
    expect(woken.effects.map((effect) => effect.type)).toEqual(['CANCEL_SLEEP', 'FAN_OUT']);
  });
});
