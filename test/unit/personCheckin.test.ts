import { describe, it, expect } from 'vitest';
import fc from 'fast-check';
import {
  MAX_FUTURE_MS,
  MAX_PAST_MS,
  allowedPersonActions,
  initialPersonStatus,
  personStatusEvent,
  personStatuses,
  transitionPerson,
  type PersonCheckinState,
  type PersonEffect,
  type PersonEvent,
  type PersonStatus,
} from '../../shared/src/domain';

const now = new Date('2025-03-10T12:00:00.000Z');
const before = new Date(now.getTime() - 3_600_000);
const stateIn = (status: PersonStatus): PersonCheckinState => ({ status, lastEventAt: before });
type EventType = PersonEvent['type'];
const eventTypes: EventType[] = ['BREAK_START', 'BREAK_END', 'CHECKOUT', 'APPROVE', 'DENY'];

const legal: Array<[EventType, PersonStatus, PersonStatus, PersonEffect[]]> = [
  [
    'BREAK_START',
    'IN',
    'ON_BREAK',
    [
      { type: 'OPEN_BREAK', at: now },
      { type: 'EMIT', event: 'PERSON_BREAK_STARTED' },
    ],
  ],
  [
    'BREAK_END',
    'ON_BREAK',
    'IN',
    [
      { type: 'CLOSE_BREAK', at: now },
      { type: 'EMIT', event: 'PERSON_BREAK_ENDED' },
    ],
  ],
  [
    'CHECKOUT',
    'IN',
    'OUT',
    [
      { type: 'SET_EXIT', at: now },
      { type: 'EMIT', event: 'PERSON_CHECKIN_EXITED' },
    ],
  ],
  [
    'CHECKOUT',
    'PENDING',
    'OUT',
    [
      { type: 'SET_EXIT', at: now },
      { type: 'EMIT', event: 'PERSON_CHECKIN_EXITED' },
    ],
  ],
  [
    'CHECKOUT',
    'STOP',
    'OUT',
    [
      { type: 'SET_EXIT', at: now },
      { type: 'EMIT', event: 'PERSON_CHECKIN_EXITED' },
    ],
  ],
  [
    'CHECKOUT',
    'ON_BREAK',
    'OUT',
    [
      { type: 'CLOSE_BREAK', at: now },
      { type: 'SET_EXIT', at: now },
      { type: 'EMIT', event: 'PERSON_CHECKIN_EXITED' },
    ],
  ],
  ['APPROVE', 'PENDING', 'IN', [{ type: 'EMIT', event: 'PERSON_CHECKIN_ENTERED' }]],
  ['DENY', 'PENDING', 'STOP', [{ type: 'EMIT', event: 'PERSON_CHECKIN_STOPPED' }]],
];

const illegal: Array<[EventType, PersonStatus, string]> = [
  ['BREAK_START', 'ON_BREAK', 'BREAK_ALREADY_OPEN'],
  ['BREAK_START', 'OUT', 'CHECKIN_CLOSED'],
  ['BREAK_START', 'PENDING', 'CHECKIN_NOT_ADMITTED'],
  ['BREAK_START', 'STOP', 'CHECKIN_NOT_ADMITTED'],
  ['BREAK_END', 'IN', 'NO_OPEN_BREAK'],
  ['BREAK_END', 'OUT', 'CHECKIN_CLOSED'],
  ['BREAK_END', 'PENDING', 'CHECKIN_NOT_ADMITTED'],
  ['BREAK_END', 'STOP', 'CHECKIN_NOT_ADMITTED'],
  ['CHECKOUT', 'OUT', 'CHECKIN_CLOSED'],
  ['APPROVE', 'IN', 'NOT_PENDING'],
  ['APPROVE', 'ON_BREAK', 'NOT_PENDING'],
  ['APPROVE', 'STOP', 'NOT_PENDING'],
  ['APPROVE', 'OUT', 'NOT_PENDING'],
  ['DENY', 'IN', 'NOT_PENDING'],
  ['DENY', 'ON_BREAK', 'NOT_PENDING'],
  ['DENY', 'STOP', 'NOT_PENDING'],
  ['DENY', 'OUT', 'NOT_PENDING'],
];

describe('transitionPerson: the table', () => {
  it('covers every (event, status) pair exactly once', () => {
    const keys = [...legal, ...illegal].map(([e, s]) => `${e}/${s}`);
    expect(new Set(keys).size).toBe(eventTypes.length * personStatuses.length);
    expect(keys).toHaveLength(eventTypes.length * personStatuses.length);
  });

  it.each(legal)('%s from %s → %s', (type, from, to, effects) => {
    const result = transitionPerson(stateIn(from), { type }, now);
    expect(result).toEqual({ ok: true, state: { status: to, lastEventAt: now }, at: now, effects });
  });

  it.each(illegal)('%s from %s is rejected with %s', (type, from, code) => {
    const result = transitionPerson(stateIn(from), { type }, now);
    expect(result).toMatchObject({ ok: false, code });
    expect(result.ok ? '' : result.message).toMatch(/^[A-Z].*\.$/);
  });

  it('does not mutate the state it was given', () => {
    const state = stateIn('IN');
    transitionPerson(state, { type: 'BREAK_START' }, now);
    expect(state).toEqual(stateIn('IN'));
  });
});

describe('transitionPerson: time', () => {
  it('records the claimed occurredAt', () => {
    const occurredAt = new Date(now.getTime() - 60_000);
    const result = transitionPerson(stateIn('IN'), { type: 'CHECKOUT', occurredAt }, now);
    expect(result).toMatchObject({ ok: true, at: occurredAt, state: { lastEventAt: occurredAt } });
    expect(result.ok && result.effects[0]).toEqual({ type: 'SET_EXIT', at: occurredAt });
  });

  it('clamps a time earlier than the previous event up to it', () => {
    const occurredAt = new Date(before.getTime() - 60_000);
    const result = transitionPerson(stateIn('IN'), { type: 'BREAK_START', occurredAt }, now);
    expect(result).toMatchObject({ ok: true, at: before, state: { status: 'ON_BREAK', lastEventAt: before } });
    expect(result.ok && result.effects[0]).toEqual({ type: 'OPEN_BREAK', at: before });
  });

  it.each([
    ['future', MAX_FUTURE_MS + 1],
    ['past', -MAX_PAST_MS - 1],
  ])('rejects an occurredAt too far in the %s', (_, ms) => {
    const occurredAt = new Date(now.getTime() + ms);
    expect(transitionPerson(stateIn('IN'), { type: 'CHECKOUT', occurredAt }, now)).toMatchObject({
      ok: false,
      code: 'OCCURRED_AT_OUT_OF_RANGE',
    });
  });

  it('accepts an occurredAt exactly at either bound', () => {
    for (const ms of [MAX_FUTURE_MS, -MAX_PAST_MS]) {
      const occurredAt = new Date(now.getTime() + ms);
      const state = { status: 'IN' as const, lastEventAt: new Date(now.getTime() - MAX_PAST_MS) };
      expect(transitionPerson(state, { type: 'CHECKOUT', occurredAt }, now)).toMatchObject({
        ok: true,
        at: occurredAt,
      });
    }
  });

  it('reports the state conflict before a bad time', () => {
    const occurredAt = new Date(now.getTime() + MAX_FUTURE_MS + 1);
    expect(transitionPerson(stateIn('OUT'), { type: 'CHECKOUT', occurredAt }, now)).toMatchObject({
      ok: false,
      code: 'CHECKIN_CLOSED',
    });
  });
});

describe('initial status, status events, allowed actions', () => {
  it.each([
    [true, true, 'STOP'],
    [true, false, 'STOP'],
    [false, true, 'PENDING'],
    [false, false, 'IN'],
  ] as const)('watchlisted=%s requiresApproval=%s → %s', (watchlisted, requiresApproval, status) => {
    expect(initialPersonStatus({ watchlisted, requiresApproval })).toBe(status);
  });

  it('maps each status to the webhook event entering it emits', () => {
    expect(personStatuses.map(personStatusEvent)).toEqual([
      'PERSON_CHECKIN_ENTERED',
      null,
      'PERSON_CHECKIN_PENDING',
      'PERSON_CHECKIN_STOPPED',
      'PERSON_CHECKIN_EXITED',
    ]);
  });

  it.each([
    ['IN', ['BREAK_START', 'CHECKOUT']],
    ['ON_BREAK', ['BREAK_END', 'CHECKOUT']],
    ['PENDING', ['CHECKOUT', 'APPROVE', 'DENY']],
    ['STOP', ['CHECKOUT']],
    ['OUT', []],
  ] as const)('from %s the kiosk offers %j', (status, actions) => {
    expect(allowedPersonActions(status)).toEqual(actions);
  });
});

describe('transitionPerson: properties', () => {
  const arbEvent = fc.record({
    type: fc.constantFrom(...eventTypes),
    // Mostly in range, sometimes outside either bound, sometimes omitted.
    offsetMs: fc.option(fc.integer({ min: -MAX_PAST_MS - 3_600_000, max: MAX_FUTURE_MS + 60_000 }), { nil: undefined }),
    // The server clock moves forward between requests, occasionally not at all.
    advanceMs: fc.integer({ min: 0, max: 6 * 3_600_000 }),
  });
  const arbRun = fc.record({
    start: fc.constantFrom(...personStatuses),
    events: fc.array(arbEvent, { maxLength: 40 }),
  });

  it('keeps breaks consistent with the status, OUT absorbing and lastEventAt monotonic', () => {
    fc.assert(
      fc.property(arbRun, ({ start, events }) => {
        let clock = now.getTime();
        let state: PersonCheckinState = { status: start, lastEventAt: new Date(clock) };
        let lastBreakEffect: 'OPEN_BREAK' | 'CLOSE_BREAK' | null = start === 'ON_BREAK' ? 'OPEN_BREAK' : null;
        let openBreaks = start === 'ON_BREAK' ? 1 : 0;
        for (const { type, offsetMs, advanceMs } of events) {
          clock += advanceMs;
          const occurredAt = offsetMs === undefined ? undefined : new Date(clock + offsetMs);
          const result = transitionPerson(state, { type, occurredAt }, new Date(clock));
          if (state.status === 'OUT') expect(result.ok).toBe(false);
          if (!result.ok) continue;
          expect(result.state.lastEventAt.getTime()).toBeGreaterThanOrEqual(state.lastEventAt.getTime());
          expect(result.at).toEqual(result.state.lastEventAt);
          for (const effect of result.effects) {
            if (effect.type === 'OPEN_BREAK' || effect.type === 'CLOSE_BREAK') {
              lastBreakEffect = effect.type;
              openBreaks += effect.type === 'OPEN_BREAK' ? 1 : -1;
            }
          }
          state = result.state;
          if (state.status === 'ON_BREAK') expect(lastBreakEffect).toBe('OPEN_BREAK');
          expect(openBreaks).toBe(state.status === 'ON_BREAK' ? 1 : 0);
        }
      }),
    );
  });

  it('never has more than one open break: OPEN_BREAK minus CLOSE_BREAK stays 0 or 1', () => {
    const arbStart = fc.record({ watchlisted: fc.boolean(), requiresApproval: fc.boolean() });
    fc.assert(
      fc.property(arbStart, fc.array(fc.constantFrom(...eventTypes), { maxLength: 60 }), (start, types) => {
        let state: PersonCheckinState = { status: initialPersonStatus(start), lastEventAt: now };
        let balance = 0;
        for (const type of types) {
          const result = transitionPerson(state, { type }, now);
          if (!result.ok) continue;
          balance += result.effects.filter((e) => e.type === 'OPEN_BREAK').length;
          balance -= result.effects.filter((e) => e.type === 'CLOSE_BREAK').length;
          expect([0, 1]).toContain(balance);
          state = result.state;
        }
      }),
    );
  });
});
