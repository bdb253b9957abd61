// First: Dexie's liveQuery only works if a global IndexedDB exists when Dexie is first imported.
import 'fake-indexeddb/auto';
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { BadgeAnswer } from '../../shared/src/client/badge';
import { badgePrinting } from '../../kiosk/src/badges/badgePrinting';
import { KioskDatabase } from '../../kiosk/src/data/database';
import { checkIn } from '../../kiosk/src/data/personCommands';
import type { ConfirmedPerson, PersonVisit } from '../../kiosk/src/data/types';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const pdf = new TextEncoder().encode('%PDF-1.3 badge');

/** A kiosk database with one check-in made on it, a printer that records, and a server that hands out badges. */
async function kiosk(windowMs = 60_000) {
  const db = new KioskDatabase(`badges-${randomUUID()}`);
  const printed: Uint8Array[] = [];
  const asked: number[] = [];
  const logged: string[] = [];
  const badges = badgePrinting({
    db,
    printer: { print: (bytes) => (printed.push(bytes), Promise.resolve({ printed: true as const })) },
    fetchBadge: ({ checkinId }): Promise<BadgeAnswer> => (asked.push(checkinId), Promise.resolve({ kind: 'pdf', pdf })),
    clock: {
      setTimer: (ms, callback) => {
        const timer = setTimeout(callback, ms);
        return () => clearTimeout(timer);
      },
    },
    windowMs,
    log: (message) => logged.push(message),
  });
  const made = await checkIn({ db, now: () => Date.now(), randomUUID }, 1, {
    person: { firstName: 'Ada', lastName: 'L' },
  });
  if (!made.ok) throw new Error(made.message);
  /** The server's answer to the create, as an acknowledgement writes it. */
  const answer = (status: ConfirmedPerson['status']) =>
    db.people.update(made.value.visitId, {
      serverId: 42,
      status,
      confirmed: {
        status,
        entryAt: made.value.entryAt,
        exitAt: null,
        breaks: [],
        updatedAt: made.value.entryAt,
        badgeCode: 'q3Zr8LwT0bXy4KcN',
      },
    });
  return { db, badges, visit: made.value, answer, printed, asked, logged };
}

describe('badges printed by the kiosk', () => {
  it('prints once the server answers IN, once', async () => {
    const { badges, visit, answer, printed, asked } = await kiosk();
    badges.afterCheckin(visit);
    await sleep(50);
    expect(asked).toEqual([]);
    await answer('IN');
    await expect.poll(() => printed.length).toBe(1);
    await answer('IN');
    await sleep(50);
    expect(asked).toEqual([42]);
    expect(printed).toEqual([pdf]);
  });

  it('prints nothing when the server answers PENDING or STOP, nor for a STOP the kiosk predicted', async () => {
    for (const status of ['PENDING', 'STOP'] as const) {
      const { badges, visit, answer, asked } = await kiosk();
      badges.afterCheckin(visit);
      await answer(status);
      await sleep(50);
      // Approved later: the console prints it, not the kiosk.
      await answer('IN');
      await sleep(50);
      expect(asked, status).toEqual([]);
    }
    const { badges, visit, answer, asked } = await kiosk();
    badges.afterCheckin({ ...visit, predicted: 'STOP' } satisfies PersonVisit);
    await answer('IN');
    await sleep(50);
    expect(asked).toEqual([]);
  });

  it('prints nothing when the answer comes after the print window, or after the kiosk closed', async () => {
    const late = await kiosk(30);
    late.badges.afterCheckin(late.visit);
    await sleep(80);
    await late.answer('IN');
    await sleep(50);
    expect(late.asked).toEqual([]);

    const closed = await kiosk();
    closed.badges.afterCheckin(closed.visit);
    closed.badges.stop();
    await closed.answer('IN');
    await sleep(50);
    expect(closed.asked).toEqual([]);
  });

  it('says why a badge the server refuses was not printed, but not for badges off', async () => {
    const { db, visit, answer } = await kiosk();
    const logged: string[] = [];
    const answers: BadgeAnswer[] = [
      {
        kind: 'refused',
        status: 409,
        problem: {
          type: 'x',
          title: 'Badges off',
          status: 409,
          detail: 'Badges are off',
          code: 'BADGES_OFF',
          instance: '/',
          requestId: 'r',
        },
      },
      { kind: 'unreachable', message: 'offline' },
    ];
    for (const reply of answers) {
      const badges = badgePrinting({
        db,
        printer: { print: () => Promise.resolve({ printed: true as const }) },
        fetchBadge: () => Promise.resolve(reply),
        clock: { setTimer: () => () => undefined },
        log: (message) => logged.push(message),
      });
      badges.afterCheckin(visit);
      await answer('IN');
      await sleep(50);
      await db.people.update(visit.visitId, { confirmed: null });
    }
    expect(logged).toEqual(['Badge of check-in 42 not printed: offline']);
  });
});
