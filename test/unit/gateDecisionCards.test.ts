import { describe, expect, it } from 'vitest';
import type { VehicleVisit } from '../../kiosk/src/data/types';
import { followVisits, type GateResult, withDecision } from '../../kiosk/renderer/screens/recentResults';
import { entryOverruled } from '../../kiosk/renderer/words';

const visit = (overrides: Partial<VehicleVisit> = {}): VehicleVisit => ({
  visitId: 'v1',
  siteId: 1,
  licensePlate: 'AB 1',
  plateKey: 'AB1',
  status: 'PENDING',
  entryAt: '2026-11-26T09:00:00.000Z',
  exitAt: null,
  lastEventAt: '2026-11-26T09:00:00.000Z',
  predicted: 'PENDING',
  confirmed: null,
  syncedAt: 0,
  ...overrides,
});

describe('the gate says when the server decided an Entry otherwise than it predicted', () => {
  it('says nothing before the answer, nor when the server agreed', () => {
    expect(entryOverruled(visit())).toBeUndefined();
    expect(entryOverruled(visit({ entryDecision: { status: 'PENDING', stopReason: null } }))).toBeUndefined();
    expect(
      entryOverruled(
        visit({
          predicted: 'STOP',
          predictedStopReason: 'Blocked by label: Banned',
          entryDecision: { status: 'STOP', stopReason: 'Blocked by label: Banned' },
        }),
      ),
    ).toBeUndefined();
  });

  it("names the server's status, and its reason for a STOP", () => {
    expect(entryOverruled(visit({ entryDecision: { status: 'STOP', stopReason: 'Blocked by label: Banned' } }))).toBe(
      'The server decided: STOP — Blocked by label: Banned',
    );
    expect(entryOverruled(visit({ predicted: 'IN', entryDecision: { status: 'PENDING', stopReason: null } }))).toBe(
      'The server decided: PENDING',
    );
    // Both STOP, for other labels (the copy was behind on labels).
    expect(
      entryOverruled(
        visit({
          predicted: 'STOP',
          predictedStopReason: 'Blocked by label: A',
          entryDecision: { status: 'STOP', stopReason: 'Blocked by label: A, B' },
        }),
      ),
    ).toBe('The server decided: STOP — Blocked by label: A, B');
  });
});

describe("a guard's decision on the result cards", () => {
  const card = (id: number, shown: VehicleVisit): GateResult => ({ kind: 'visit', visit: shown, action: 'Entry', id });

  it('updates the card of the visit it decides, or adds one when none shows it', () => {
    const results = [card(1, visit())];
    const admitted = visit({ status: 'IN' });
    expect(withDecision(results, admitted, 'Admit', 2, true)).toEqual([{ ...card(1, admitted), decided: true }]);
    const other = visit({ visitId: 'v2', licensePlate: 'CD 2', status: 'STOP', stopReason: 'Refused' });
    expect(withDecision(results, other, 'Refuse', 2, true)).toEqual([
      { kind: 'visit', visit: other, action: 'Refuse', id: 2, decided: true },
      ...results,
    ]);
  });

  it("the card of an Admit does not go back to the live list's PENDING copy from before it; it follows once the list has it decided", () => {
    const waiting = visit();
    const admitted = withDecision([card(1, waiting)], visit({ status: 'IN' }), 'Admit', 2, true);
    // The live list as it was read before the Admit was saved (it is read again only after): the card stays IN.
    expect(followVisits(admitted, [waiting])).toBe(admitted);
    // The list has caught up: the card follows it from now on, the server's word included.
    const saved = visit({ status: 'IN', syncedAt: 7 });
    const caughtUp = followVisits(admitted, [saved]);
    expect(caughtUp).toEqual([card(1, saved)]);
    // A decision discarded later (Needs attention) brings PENDING back, and the card says so.
    expect(followVisits(caughtUp, [waiting])).toEqual([card(1, waiting)]);
  });

  it("cards follow a visit to STOP and its reason, and to the server's decision of the Entry", () => {
    const results = [card(1, visit())];
    const stopped = visit({ status: 'STOP', stopReason: 'Refused' });
    expect(followVisits(results, [stopped])).toEqual([card(1, stopped)]);
    const decided = visit({ entryDecision: { status: 'PENDING', stopReason: null } });
    expect(followVisits(results, [decided])).toEqual([card(1, decided)]);
    // Nothing a card shows changed: the same array, so the screen is left as it is.
    const same = visit({ syncedAt: 5 });
    expect(followVisits(results, [same])).toBe(results);
  });
});
