// First: Dexie's liveQuery only works if a global IndexedDB exists when Dexie is first imported.
import 'fake-indexeddb/auto';
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { badgeQrText } from '../../shared/src/domain/badge';
import { checkOutByBadge } from '../../kiosk/src/data/badgeCheckout';
import { KioskDatabase } from '../../kiosk/src/data/database';
import { checkIn } from '../../kiosk/src/data/personCommands';
import type { KeptPersonStatus } from '../../kiosk/src/data/types';

const CODE = 'q3Zr8LwT0bXy4KcN';

/** A kiosk of site 1 holding one visit the server confirmed as `status`, with its badge code. */
async function kioskWith(status: KeptPersonStatus) {
  const db = new KioskDatabase(`badge-checkout-${randomUUID()}`);
  const ctx = { db, now: () => Date.now(), randomUUID };
  const made = await checkIn(ctx, 1, { person: { firstName: 'Ada', lastName: 'L' } });
  if (!made.ok) throw new Error(made.message);
  await db.outbox.clear();
  const at = made.value.entryAt;
  await db.people.update(made.value.visitId, {
    serverId: 42,
    status,
    confirmed: { status, entryAt: at, exitAt: null, breaks: [], updatedAt: at, badgeCode: CODE },
  });
  return { db, ctx, scan: (text: string) => checkOutByBadge(ctx, 1, text) };
}

describe('a badge scanned at the kiosk', () => {
  it('queues the checkout of the visit on site it names, once', async () => {
    for (const status of ['IN', 'ON_BREAK'] as const) {
      const { db, scan } = await kioskWith(status);
      const result = await scan(badgeQrText({ siteId: 1, checkinId: 42, code: CODE }));
      expect(result.ok, status).toBe(true);
      expect((await db.outbox.toArray()).map((action) => action.kind)).toEqual(['PERSON_CHECKOUT']);
      const again = await scan(badgeQrText({ siteId: 1, checkinId: 42, code: CODE }));
      expect(again).toMatchObject({ ok: false, code: 'CHECKIN_CLOSED' });
      expect(await db.outbox.count()).toBe(1);
    }
  });

  it('checks out nobody for a visit not on site, a wrong code, another site, or text that is no badge', async () => {
    for (const status of ['PENDING', 'STOP'] as const) {
      const { db, scan } = await kioskWith(status);
      expect(await scan(badgeQrText({ siteId: 1, checkinId: 42, code: CODE })), status).toMatchObject({
        ok: false,
        code: 'BADGE_UNKNOWN',
      });
      expect(await db.outbox.count()).toBe(0);
    }
    const { db, scan } = await kioskWith('IN');
    const refusals = [
      [badgeQrText({ siteId: 1, checkinId: 42, code: 'AAAAAAAAAAAAAAAA' }), 'BADGE_UNKNOWN'],
      [badgeQrText({ siteId: 1, checkinId: 43, code: CODE }), 'BADGE_UNKNOWN'],
      [badgeQrText({ siteId: 2, checkinId: 42, code: CODE }), 'BADGE_OTHER_SITE'],
      ['gatehouse://checkout?site=1&checkin=42', 'BADGE_UNREADABLE'],
    ];
    for (const [text, code] of refusals) expect(await scan(text ?? ''), text).toMatchObject({ ok: false, code });
    expect(await db.outbox.count()).toBe(0);
  });
});
