import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { type Decider, changeStamp, decisionAfter, stopAfter } from '../../shared/src/domain';

const at = new Date('2026-11-21T10:00:00.000Z');
const earlier = {
  by: { type: 'token' as const, id: 3, name: 'Lobby kiosk' },
  at: new Date('2026-11-21T09:00:00.000Z'),
};
const token: Decider = { actor: { type: 'token', id: 9, name: 'Gate' }, byUser: false };
const user: Decider = { actor: { type: 'user', id: 4, name: 'Grace' }, byUser: true };

describe('who decided a visit', () => {
  it('approve and deny record whoever makes them', () => {
    for (const change of ['APPROVE', 'DENY']) {
      expect(decisionAfter(change, earlier, token, at)).toEqual({ by: token.actor, at });
      expect(decisionAfter(change, earlier, user, at)).toEqual({ by: user.actor, at });
    }
  });

  it('an entry, a break or a checkout is a decision only when a staff user makes it', () => {
    for (const change of ['ENTRY', 'BREAK_START', 'BREAK_END', 'CHECKOUT']) {
      expect(decisionAfter(change, earlier, token, at)).toBe(earlier);
      expect(decisionAfter(change, earlier, user, at)).toEqual({ by: user.actor, at });
    }
  });
});

describe('why a visit is STOP', () => {
  it('a deny stops it from the moment the server learns of it; nothing else changes the stop', () => {
    const watchlisted = { source: 'watchlist' as const, at: earlier.at };
    expect(stopAfter('DENY', { source: null, at: null }, at)).toEqual({ source: 'denied', at });
    for (const change of ['ENTRY', 'APPROVE', 'CHECKOUT']) expect(stopAfter(change, watchlisted, at)).toBe(watchlisted);
  });
});

describe('the stamp of a change', () => {
  it('is the clock when it is later than the last change, else a millisecond after it: stamps only grow', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 2 ** 40 }), fc.integer({ min: -5_000, max: 5_000 }), (last, skew) => {
        const stamp = changeStamp(new Date(last + skew), new Date(last));
        expect(stamp.getTime()).toBe(skew > 0 ? last + skew : last + 1);
      }),
    );
  });
});
