import { expect } from 'vitest';
import type { PersonCheckin } from '../../shared/src/schemas/personCheckins';
import type { PersonVisit } from '../../kiosk/src/data/types';
import type { Kiosk } from '../../kiosk/src/kiosk';
import type { ShiftableClock } from '../../kiosk/src/platform/testPlatform';

type Step = 'startBreak' | 'endBreak' | 'checkOut';

/** What each visitor does after checking in (visitor i follows plan i mod 4). */
const plans: Step[][] = [
  ['startBreak', 'endBreak', 'checkOut'],
  ['checkOut'],
  ['startBreak'],
  ['startBreak', 'endBreak', 'startBreak', 'checkOut'],
];

/**
 * A kiosk's working day: visitors arrive a few minutes apart and their breaks and checkouts interleave,
 * every action at its own time on the kiosk's clock. Returns each visit as the kiosk shows it at the end,
 * which is what the server must end up with.
 */
export async function playDay(
  kiosk: Kiosk,
  clock: ShiftableClock,
  visitors: number,
  tag: string,
): Promise<{ expected: Map<string, PersonVisit>; actions: number }> {
  const visits: PersonVisit[] = [];
  let actions = 0;
  for (let round = 0; round <= visitors + 4; round += 1) {
    if (round < visitors) {
      clock.shift(3 * 60_000);
      const created = await kiosk.checkIn({
        person: { firstName: `${tag}${round}`, lastName: 'Visitor', company: 'ACME' },
      });
      if (!created.ok) throw new Error(`check-in refused: ${created.message}`);
      visits.push(created.value);
      actions += 1;
    }
    // Earlier visitors take their next step in this round, one minute apart.
    for (const [index, visit] of visits.entries()) {
      const step = plans[index % plans.length]?.[round - index - 1];
      if (!step) continue;
      clock.shift(60_000);
      const done = await kiosk[step](visit.visitId);
      if (!done.ok) throw new Error(`${step} refused: ${done.message}`);
      visits[index] = done.value;
      actions += 1;
    }
  }
  return { expected: new Map(visits.map((visit) => [visit.person.firstName, visit])), actions };
}

/** The server has exactly these visits: one check-in each, with the kiosk's times, breaks and checkouts. */
export function expectServerToMatch(server: PersonCheckin[], expected: Map<string, PersonVisit>): void {
  expect(server).toHaveLength(expected.size);
  const names = new Set(server.map((checkin) => checkin.person.firstName));
  expect(names.size).toBe(server.length);
  for (const checkin of server) {
    const visit = expected.get(checkin.person.firstName);
    expect(visit, `unexpected check-in ${checkin.person.firstName}`).toBeDefined();
    if (!visit) continue;
    expect({
      status: checkin.status,
      entryAt: checkin.entry.at,
      source: checkin.entry.source,
      exitAt: checkin.exit?.at ?? null,
      breaks: checkin.breaks.map(({ startedAt, endedAt }) => ({ startedAt, endedAt })),
    }).toEqual({
      status: visit.status,
      entryAt: visit.entryAt,
      source: 'KIOSK',
      exitAt: visit.exitAt,
      breaks: visit.breaks,
    });
  }
}
