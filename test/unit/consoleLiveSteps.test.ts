import { describe, expect, it } from 'vitest';
import { stepFor } from '../../console/live/liveSteps';
import { expectEcho, forgetEchoes, isOwnEcho } from '../../console/live/ownEchoes';

// What the console does about each event (docs/event-stream-clients.md, Each change): one request per
// event at most, none for an echo of its own write or for a visit leaving its views.
const message = (event: string, data: unknown) => ({ event, data: JSON.stringify(data), lastEventId: '1-1' });
const holds = (status?: string) => () => status;
const checkin = (status: string, extra: Record<string, unknown> = {}) =>
  message('checkin', { kind: 'person', siteId: 3, checkinId: 42, status, ...extra });

describe('the console follows one event at a time', () => {
  it('reads a visit it does not hold, or holds in another status', () => {
    const read = { do: 'readVisit', kind: 'person', siteId: 3, checkinId: 42 };
    expect(stepFor(checkin('IN'), holds())).toEqual(read);
    expect(stepFor(checkin('ON_BREAK'), holds('IN'))).toEqual(read);
  });

  it('asks nothing for the echo of its own write, unless the person data was erased', () => {
    expect(stepFor(checkin('IN'), holds('IN'))).toEqual({ do: 'nothing' });
    expect(stepFor(checkin('IN', { anonymized: true }), holds('IN'))).toMatchObject({ do: 'readVisit' });
  });

  it('takes a visit off its views without a request, and ignores one it never showed', () => {
    expect(stepFor(checkin('OUT'), holds('IN'))).toEqual({ do: 'remove', kind: 'person', checkinId: 42 });
    expect(stepFor(checkin('STOP'), holds('PENDING'))).toEqual({ do: 'remove', kind: 'person', checkinId: 42 });
    expect(stepFor(checkin('OUT'), holds())).toEqual({ do: 'nothing' });
  });

  it('a vehicle on break is no vehicle status: only IN and PENDING are shown', () => {
    const vehicle = message('checkin', { kind: 'vehicle', siteId: 3, checkinId: 7, status: 'ON_BREAK' });
    expect(stepFor(vehicle, holds('IN'))).toEqual({ do: 'remove', kind: 'vehicle', checkinId: 7 });
  });

  it('reads everything on reset, the alerts on alert, and ignores what it does not know', () => {
    expect(stepFor(message('reset', { reason: 'start' }), holds())).toEqual({ do: 'readAll' });
    expect(stepFor(message('alert', { kind: 'person', siteId: 3, checkinId: 42 }), holds())).toEqual({
      do: 'readAlerts',
    });
    expect(stepFor(message('ready', { resumed: true }), holds())).toEqual({ do: 'nothing' });
    expect(stepFor(message('config', { siteId: 3, version: 2 }), holds())).toEqual({ do: 'nothing' });
    expect(stepFor({ event: 'checkin', data: 'not json', lastEventId: '' }, holds())).toEqual({ do: 'nothing' });
  });

  it('asks nothing for the echo of an acknowledgement: an alert it holds acknowledged stays so', () => {
    const alert = message('alert', { kind: 'person', siteId: 3, checkinId: 42 });
    const acknowledged = (kind: string, checkinId: number) => kind === 'person' && checkinId === 42;
    expect(stepFor(alert, holds(), acknowledged)).toEqual({ do: 'nothing' });
    expect(stepFor(alert, holds(), () => false)).toEqual({ do: 'readAlerts' });
    const other = message('alert', { kind: 'vehicle', siteId: 3, checkinId: 42 });
    expect(stepFor(other, holds(), acknowledged)).toEqual({ do: 'readAlerts' });
  });
});

describe('the echo of the console’s own write', () => {
  it('is skipped once, and only the one expected', () => {
    forgetEchoes();
    expectEcho('invitation:5:cancelled');
    expect(isOwnEcho('invitation:5:expected')).toBe(false);
    expect(isOwnEcho('invitation:5:cancelled')).toBe(true);
    // The next one with the same name is someone else's change.
    expect(isOwnEcho('invitation:5:cancelled')).toBe(false);
  });
});
