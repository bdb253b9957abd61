import { describe, it, expect } from 'vitest';
import fc from 'fast-check';
import {
  MAX_FUTURE_MS,
  MAX_PAST_MS,
  decideVehicleEntry,
  deniedStopReason,
  isOpenVehicleStatus,
  transitionVehicle,
  vehicleStatusEvent,
  vehicleStatuses,
  type VehicleCheckinState,
  type VehicleEffect,
  type VehicleEvent,
  type VehicleStatus,
} from '../../shared/src/domain';

const now = new Date('2025-03-10T12:00:00.000Z');
const before = new Date(now.getTime() - 3_600_000);
const stateIn = (status: VehicleStatus): VehicleCheckinState => ({ status, lastEventAt: before });
type EventType = VehicleEvent['type'];
const eventTypes: EventType[] = ['CHECKOUT', 'APPROVE', 'DENY'];
const exit: VehicleEffect[] = [
  { type: 'SET_EXIT', at: now },
  { type: 'EMIT', event: 'VEHICLE_CHECKIN_EXITED' },
];

const legal: Array<[EventType, VehicleStatus, VehicleStatus, VehicleEffect[]]> = [
  ['CHECKOUT', 'IN', 'OUT', exit],
  ['CHECKOUT', 'PENDING', 'OUT', exit],
  ['CHECKOUT', 'STOP', 'OUT', exit],
  ['APPROVE', 'PENDING', 'IN', [{ type: 'EMIT', event: 'VEHICLE_CHECKIN_ENTERED' }]],
  ['DENY', 'PENDING', 'STOP', [{ type: 'EMIT', event: 'VEHICLE_CHECKIN_STOPPED' }]],
];

const illegal: Array<[EventType, VehicleStatus, string]> = [
  ['CHECKOUT', 'OUT', 'CHECKIN_CLOSED'],
  ['APPROVE', 'IN', 'NOT_PENDING'],
  ['APPROVE', 'STOP', 'NOT_PENDING'],
  ['APPROVE', 'OUT', 'NOT_PENDING'],
  ['DENY', 'IN', 'NOT_PENDING'],
  ['DENY', 'STOP', 'NOT_PENDING'],
  ['DENY', 'OUT', 'NOT_PENDING'],
];

describe('transitionVehicle: the table', () => {
  it('covers every (event, status) pair exactly once', () => {
    const keys = [...legal, ...illegal].map(([e, s]) => `${e}/${s}`);
    expect(new Set(keys).size).toBe(eventTypes.length * vehicleStatuses.length);
    expect(keys).toHaveLength(eventTypes.length * vehicleStatuses.length);
  });

  it.each(legal)('%s from %s → %s', (type, from, to, effects) => {
    const result = transitionVehicle(stateIn(from), { type }, now);
    expect(result).toEqual({ ok: true, state: { status: to, lastEventAt: now }, at: now, effects });
  });

  it.each(illegal)('%s from %s is rejected with %s', (type, from, code) => {
    const result = transitionVehicle(stateIn(from), { type }, now);
    expect(result).toMatchObject({ ok: false, code });
    expect(result.ok ? '' : result.message).toMatch(/^[A-Z].*\.$/);
  });
});

describe('transitionVehicle: time', () => {
  it('clamps a time earlier than the previous event up to it', () => {
    const occurredAt = new Date(before.getTime() - 1);
    const result = transitionVehicle(stateIn('IN'), { type: 'CHECKOUT', occurredAt }, now);
    expect(result).toMatchObject({ ok: true, at: before, state: { status: 'OUT', lastEventAt: before } });
    expect(result.ok && result.effects[0]).toEqual({ type: 'SET_EXIT', at: before });
  });

  it('accepts both bounds exactly and rejects 1 ms past either', () => {
    const state = { status: 'PENDING' as const, lastEventAt: new Date(now.getTime() - MAX_PAST_MS) };
    for (const ms of [MAX_FUTURE_MS, -MAX_PAST_MS]) {
      const occurredAt = new Date(now.getTime() + ms);
      expect(transitionVehicle(state, { type: 'APPROVE', occurredAt }, now)).toMatchObject({
        ok: true,
        at: occurredAt,
      });
    }
    for (const ms of [MAX_FUTURE_MS + 1, -MAX_PAST_MS - 1]) {
      const occurredAt = new Date(now.getTime() + ms);
      expect(transitionVehicle(state, { type: 'APPROVE', occurredAt }, now)).toMatchObject({
        ok: false,
        code: 'OCCURRED_AT_OUT_OF_RANGE',
      });
    }
  });

  it('reports the state conflict before a bad time', () => {
    const occurredAt = new Date(now.getTime() - MAX_PAST_MS - 1);
    expect(transitionVehicle(stateIn('IN'), { type: 'APPROVE', occurredAt }, now)).toMatchObject({
      ok: false,
      code: 'NOT_PENDING',
    });
  });
});

describe('initial status, status events, open visits', () => {
  it.each([
    [true, ['Banned', 'Audit'], 'STOP', 'Blocked by label: Audit, Banned'],
    [false, ['Banned'], 'STOP', 'Blocked by label: Banned'],
    [true, [], 'IN', null],
    [false, [], 'PENDING', null],
  ] as const)('registered=%s blocking labels=%j → %s (%s)', (registered, blockingLabelNames, status, stopReason) => {
    expect(decideVehicleEntry({ registered, blockingLabelNames })).toEqual({ status, stopReason });
  });

  it.each([
    ['Wrong delivery', 'Wrong delivery'],
    ['  No booking ', 'No booking'],
    ['   ', 'Refused'],
    [null, 'Refused'],
    [undefined, 'Refused'],
  ] as const)('a deny with reason %j stops with %j', (reason, stopReason) => {
    expect(deniedStopReason(reason)).toBe(stopReason);
  });

  it('maps each status to the webhook event entering it emits', () => {
    expect(vehicleStatuses.map(vehicleStatusEvent)).toEqual([
      'VEHICLE_CHECKIN_ENTERED',
      'VEHICLE_CHECKIN_PENDING',
      'VEHICLE_CHECKIN_STOPPED',
      'VEHICLE_CHECKIN_EXITED',
    ]);
  });

  it('counts only IN and PENDING as an open visit', () => {
    expect(vehicleStatuses.filter(isOpenVehicleStatus)).toEqual(['IN', 'PENDING']);
  });
});

describe('transitionVehicle: properties', () => {
  const arbEvent = fc.record({
    type: fc.constantFrom(...eventTypes),
    offsetMs: fc.option(fc.integer({ min: -MAX_PAST_MS - 3_600_000, max: MAX_FUTURE_MS + 60_000 }), { nil: undefined }),
    advanceMs: fc.integer({ min: 0, max: 6 * 3_600_000 }),
  });

  it('keeps OUT absorbing, lastEventAt monotonic and emits exactly the entered status', () => {
    fc.assert(
      fc.property(fc.constantFrom(...vehicleStatuses), fc.array(arbEvent, { maxLength: 30 }), (start, events) => {
        let clock = now.getTime();
        let state: VehicleCheckinState = { status: start, lastEventAt: new Date(clock) };
        for (const { type, offsetMs, advanceMs } of events) {
          clock += advanceMs;
          const occurredAt = offsetMs === undefined ? undefined : new Date(clock + offsetMs);
          const result = transitionVehicle(state, { type, occurredAt }, new Date(clock));
          if (state.status === 'OUT') expect(result.ok).toBe(false);
          if (!result.ok) continue;
          expect(result.state.lastEventAt.getTime()).toBeGreaterThanOrEqual(state.lastEventAt.getTime());
          expect(result.effects.at(-1)).toEqual({ type: 'EMIT', event: vehicleStatusEvent(result.state.status) });
          state = result.state;
        }
      }),
    );
  });
});
