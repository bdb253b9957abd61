// First: Dexie's liveQuery only works if a global IndexedDB exists when Dexie is first imported.
import 'fake-indexeddb/auto';
import { IDBKeyRange, indexedDB } from 'fake-indexeddb';
import { randomUUID } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import type { CommandContext } from '../../kiosk/src/data/command';
import { KioskDatabase } from '../../kiosk/src/data/database';
import { checkIn } from '../../kiosk/src/data/personCommands';
import { looksLikeSamePerson, visitsLike } from '../../kiosk/src/data/earlierVisit';
import type { PersonVisit } from '../../kiosk/src/data/types';
import { defaultCheckinConfig } from '../../shared/src/schemas/sites';

const databases: KioskDatabase[] = [];
afterEach(() => {
  for (const db of databases.splice(0)) db.close();
});

function context(): CommandContext {
  const db = new KioskDatabase(`checkin-guards-${randomUUID()}`, { indexedDB, IDBKeyRange });
  databases.push(db);
  return { db, now: () => Date.parse('2026-11-22T08:00:00.000Z'), randomUUID };
}

function visit(person: Partial<PersonVisit['person']>, entryAt = '2026-11-22T08:00:00.000Z'): PersonVisit {
  return {
    visitId: randomUUID(),
    siteId: 1,
    person: { firstName: 'Ada', lastName: 'Lovelace', email: null, phone: null, company: null, ...person },
    hostName: null,
    purpose: null,
    status: 'IN',
    entryAt,
    exitAt: null,
    breaks: [],
    lastEventAt: entryAt,
    predicted: 'IN',
    confirmed: null,
    syncedAt: 0,
  };
}

describe('checking in a value longer than the server accepts', () => {
  it('is refused in a sentence naming the field, and nothing is queued', async () => {
    const ctx = context();
    const result = await checkIn(ctx, 1, { person: { firstName: 'A'.repeat(101), lastName: 'Lovelace' } });
    expect(result).toMatchObject({
      ok: false,
      code: 'VALIDATION_FAILED',
      errors: [{ path: 'person.firstName', message: 'First name can be at most 100 characters' }],
    });
    expect(await ctx.db.outbox.count()).toBe(0);
    expect(await ctx.db.people.count()).toBe(0);
  });

  it("names the field by the site's own label when the site's form is cached", async () => {
    const ctx = context();
    const fields = defaultCheckinConfig.fields.map((field) =>
      field.name === 'lastName' ? { ...field, label: 'Family name' } : field,
    );
    await ctx.db.siteConfigs.put({
      siteId: 1,
      config: { siteId: 1, requiresApproval: false, fields },
      etag: null,
      fetchedAt: 0,
    });
    const result = await checkIn(ctx, 1, { person: { firstName: 'Ada', lastName: 'L'.repeat(101) } });
    expect(result.ok ? [] : result.errors).toEqual([
      { path: 'person.lastName', message: 'Family name can be at most 100 characters' },
    ]);
  });
});

describe('who looks already checked in', () => {
  it('is the same first and last name in any case, with spaces around ignored', () => {
    expect(looksLikeSamePerson(visit({}), { firstName: ' ada ', lastName: 'LOVELACE ' })).toBe(true);
    expect(looksLikeSamePerson(visit({}), { firstName: 'Ada', lastName: 'Byron' })).toBe(false);
    expect(looksLikeSamePerson(visit({}), { firstName: 'Augusta Ada', lastName: 'Lovelace' })).toBe(false);
    // Without both names there is nothing to compare.
    expect(looksLikeSamePerson(visit({}), { firstName: 'Ada' })).toBe(false);
  });

  it('needs the same email only when both have one', () => {
    const withEmail = visit({ email: 'ada@example.com' });
    expect(looksLikeSamePerson(withEmail, { firstName: 'Ada', lastName: 'Lovelace', email: 'ADA@example.com ' })).toBe(
      true,
    );
    expect(
      looksLikeSamePerson(withEmail, { firstName: 'Ada', lastName: 'Lovelace', email: 'other.ada@example.com' }),
    ).toBe(false);
    expect(looksLikeSamePerson(withEmail, { firstName: 'Ada', lastName: 'Lovelace' })).toBe(true);
    expect(looksLikeSamePerson(visit({}), { firstName: 'Ada', lastName: 'Lovelace', email: 'ada@example.com' })).toBe(
      true,
    );
  });

  it('lists the latest arrival first', () => {
    const early = visit({}, '2026-11-22T07:00:00.000Z');
    const late = visit({}, '2026-11-22T09:00:00.000Z');
    const other = visit({ firstName: 'Grace' }, '2026-11-22T10:00:00.000Z');
    expect(
      visitsLike([early, other, late], { firstName: 'Ada', lastName: 'Lovelace' }).map((found) => found.entryAt),
    ).toEqual([late.entryAt, early.entryAt]);
  });
});
