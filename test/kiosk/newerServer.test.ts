// First: Dexie's liveQuery only works if a global IndexedDB exists when Dexie is first imported.
import 'fake-indexeddb/auto';
import { randomUUID } from 'node:crypto';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { rollCall } from '../../kiosk/src/data/queries';
import { openKiosk } from '../../kiosk/src/kiosk';
import { testNetwork, testPlatform } from '../../kiosk/src/platform/testPlatform';
import { stubPeopleFeed, stubPersonCheckin } from './stubAnswers';

// A server upgraded before its kiosks: v1 grows by adding enum values (docs/api.md, Basics), so its answers carry
// statuses, sources and field types this kiosk was built without. A stub server stands in for it.

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), {
    status,
    headers: { 'Content-Type': status >= 400 ? 'application/problem+json' : 'application/json' },
  });

let nextId = 100;
const person = (firstName: string, changes: Record<string, unknown> = {}) =>
  stubPersonCheckin(firstName, 'Newer', changes);

function vehicle(licensePlate: string, changes: Record<string, unknown> = {}) {
  const at = new Date().toISOString();
  return {
    checkinId: nextId++,
    siteId: 1,
    vehicleId: null,
    licensePlate,
    status: 'IN',
    driverName: null,
    notes: null,
    entry: { source: 'KIOSK', at },
    exit: null,
    denyReason: null,
    createdAt: at,
    updatedAt: at,
    ...changes,
  };
}

const listOf = (data: unknown[]) => json(200, { data, nextCursor: null });

function stubKiosk(fetch: (url: string, init: RequestInit) => Promise<Response>, mode: 'visitor' | 'gate' = 'visitor') {
  const errors: unknown[] = [];
  const kiosk = openKiosk({
    platform: testPlatform({ network: testNetwork({ fetch }) }),
    databaseName: `newer-${randomUUID()}`,
    serverUrl: 'http://newer.invalid',
    token: 't',
    siteId: 1,
    mode,
    sync: { pullIntervalMs: 60_000, onError: (error) => errors.push(error) },
  });
  return { kiosk, errors };
}

afterEach(() => vi.restoreAllMocks());

describe('a kiosk whose server is newer than it', () => {
  it('pulls a list with a newer source and a newer status: the whole page shows', async () => {
    const list = [
      person('Ada'),
      person('Badge', { entry: { source: 'BADGE', at: new Date().toISOString() } }),
      person('Grace', { status: 'ESCORTED' }),
    ];
    const feed = stubPeopleFeed(() => list);
    const { kiosk, errors } = stubKiosk((url) =>
      Promise.resolve(url.includes('/people/changes') ? feed() : listOf(list)),
    );
    kiosk.start();
    await kiosk.engine.syncNow();
    expect((await rollCall(kiosk.db, 1)).map((visit) => visit.person.firstName).sort()).toEqual([
      'Ada',
      'Badge',
      'Grace',
    ]);
    expect(errors).toEqual([]);
    await kiosk.close();
  });

  it('keeps a person whose status is newer than it on the Roll call, showing that status, and offers no action on them', async () => {
    let list = [person('Ada'), person('Grace')];
    const feed = stubPeopleFeed(() => list);
    const { kiosk, errors } = stubKiosk((url) =>
      Promise.resolve(url.includes('/people/changes') ? feed() : listOf(list)),
    );
    kiosk.start();
    await kiosk.engine.syncNow();

    // Grace moves to a status this kiosk does not know: she is still on site, and the Roll call is the evacuation list.
    list = list.map((item) =>
      item.person.firstName === 'Grace' ? { ...item, status: 'ESCORTED', updatedAt: new Date().toISOString() } : item,
    );
    await kiosk.engine.syncNow();
    const onSite = await rollCall(kiosk.db, 1);
    expect(onSite.map((visit) => [visit.person.firstName, visit.status])).toEqual([
      ['Ada', 'IN'],
      ['Grace', 'ESCORTED'],
    ]);
    // Find your name lists only those who may check out or take a break (IN, ON_BREAK).
    expect(await kiosk.findPeople('gra')).toEqual([]);

    // Whether she may take a break or check out here is unknown: refused in words, nothing queued.
    const grace = onSite[1]?.visitId ?? '';
    expect(await kiosk.startBreak(grace)).toMatchObject({
      ok: false,
      code: 'UNKNOWN_STATUS',
      message: expect.stringContaining('ESCORTED'),
    });
    expect(await kiosk.checkOut(grace)).toMatchObject({ ok: false, code: 'UNKNOWN_STATUS' });
    expect(await kiosk.db.outbox.count()).toBe(0);

    // Checked out elsewhere: she leaves the Roll call like anyone else.
    list = list.filter((item) => item.person.firstName !== 'Grace');
    await kiosk.engine.syncNow();
    expect((await rollCall(kiosk.db, 1)).map((visit) => visit.person.firstName)).toEqual(['Ada']);
    expect(errors).toEqual([]);
    await kiosk.close();
  });

  it('shows the check-in form when a field has a newer type: a required one as plain text, an optional one left out', async () => {
    const config = {
      siteId: 1,
      requiresApproval: false,
      layout: 'two-columns',
      fields: [
        { name: 'firstName', label: 'First name', type: 'text', required: true, placeholder: 'Ada' },
        { name: 'lastName', label: 'Last name', type: 'text', required: true },
        { name: 'idNumber', label: 'ID number', type: 'national-id', required: true, pattern: '^[0-9]+$' },
        { name: 'selfie', label: 'Photo', type: 'photo', required: false },
        { name: 'visitType', label: 'Visit type', type: 'select', required: false, options: ['Meeting', 'Delivery'] },
      ],
    };
    const created: unknown[] = [];
    const { kiosk } = stubKiosk(async (url, init) => {
      if (url.endsWith('/config'))
        return new Response(JSON.stringify(config), { headers: { 'Content-Type': 'application/json', ETag: '"v7"' } });
      if (init.method === 'POST') {
        const body = JSON.parse(String(init.body)) as {
          person: { firstName: string };
          customFields?: Record<string, unknown>;
        };
        created.push(body);
        return json(201, person(body.person.firstName, { customFields: body.customFields ?? {} }));
      }
      return listOf([]);
    });
    const shown = await kiosk.siteConfig();
    expect(shown?.config.fields.map((field) => `${field.name}:${field.type}:${field.required}`)).toEqual([
      'firstName:text:true',
      'lastName:text:true',
      'idNumber:text:true',
      'visitType:select:false',
    ]);
    // Cut down, so not cached under the server's ETag: a kiosk updated since gets the whole form, not a 304.
    expect((await kiosk.db.siteConfigs.get(1))?.etag).toBeNull();

    expect(await kiosk.checkIn({ person: { firstName: 'Ada', lastName: 'Lovelace' } })).toMatchObject({
      ok: false,
      code: 'VALIDATION_FAILED',
    });
    const result = await kiosk.checkIn({
      person: { firstName: 'Ada', lastName: 'Lovelace' },
      customFields: { idNumber: '123456' },
    });
    expect(result).toMatchObject({ ok: true });
    kiosk.start();
    await kiosk.engine.syncNow();
    expect(created).toEqual([expect.objectContaining({ customFields: { idNumber: '123456' } })]);
    expect(await kiosk.db.outbox.count()).toBe(0);
    await kiosk.close();
  });

  it('acknowledges a queued action whose answer carries a newer source or status: the server did it', async () => {
    const badge = { source: 'BADGE', at: new Date().toISOString() };
    const list: Array<ReturnType<typeof person>> = [];
    const { kiosk } = stubKiosk(async (_url, init) => {
      if (init.method !== 'POST') return listOf(list);
      const body = JSON.parse(String(init.body)) as { person: { firstName: string } };
      // Ada is let in with a source this kiosk does not know; Grace is held in a status it does not know.
      const created =
        body.person.firstName === 'Ada' ? person('Ada', { entry: badge }) : person('Grace', { status: 'EXPECTED' });
      list.push(created);
      return json(201, created);
    });
    await kiosk.checkIn({ person: { firstName: 'Ada', lastName: 'Newer' } });
    await kiosk.checkIn({ person: { firstName: 'Grace', lastName: 'Newer' } });
    kiosk.start();
    await kiosk.engine.syncNow();
    expect(await kiosk.db.outbox.toArray()).toEqual([]);
    const visits = await rollCall(kiosk.db, 1);
    // Both take the server's word; Grace's status, newer than the kiosk, is kept as it came (she is on site).
    expect(
      visits.map((visit) => [visit.person.firstName, visit.status, visit.confirmed?.status, visit.serverId]),
    ).toEqual([
      ['Ada', 'IN', 'IN', list[0]?.checkinId],
      ['Grace', 'EXPECTED', 'EXPECTED', list[1]?.checkinId],
    ]);
    await kiosk.close();
  });

  it('sends the later actions of a visit acknowledged in a newer status to its server id; a refusal carrying it goes to Needs attention', async () => {
    const grace = person('Grace', { status: 'EXPECTED' });
    const requests: string[] = [];
    const { kiosk } = stubKiosk(async (url, init) => {
      if (init.method !== 'POST') return listOf([]);
      requests.push(new URL(url).pathname);
      if (url.endsWith('/checkins/people')) return json(201, grace);
      return json(409, {
        type: 'urn:problem:checkin-not-admitted',
        title: 'Check-in not admitted',
        status: 409,
        detail: 'Not admitted yet.',
        code: 'CHECKIN_NOT_ADMITTED',
        instance: new URL(url).pathname,
        requestId: 'r',
        current: grace,
      });
    });
    const created = await kiosk.checkIn({ person: { firstName: 'Grace', lastName: 'Newer' } });
    if (!created.ok) throw new Error(created.message);
    expect(await kiosk.startBreak(created.value.visitId)).toMatchObject({ ok: true });
    kiosk.start();
    await kiosk.engine.syncNow();
    expect(requests).toEqual([
      '/v1/sites/1/checkins/people',
      `/v1/sites/1/checkins/people/${grace.checkinId}/breaks/start`,
    ]);
    const [waiting] = await kiosk.db.outbox.toArray();
    expect(waiting).toMatchObject({
      kind: 'PERSON_BREAK_START',
      state: 'ATTENTION',
      lastError: { code: 'CHECKIN_NOT_ADMITTED' },
    });
    // The kiosk cannot replay the break over a status it does not know: it shows the server's.
    expect(await kiosk.db.people.get(created.value.visitId)).toMatchObject({
      serverId: grace.checkinId,
      status: 'EXPECTED',
    });
    await kiosk.close();
  });

  it('at the gate: exit by plate of a visit with a newer source is queued and synced; one in a newer status is refused in words', async () => {
    const anpr = vehicle('ANPR 1', { entry: { source: 'ANPR', at: new Date().toISOString() } });
    const held = vehicle('HELD 2', { status: 'INSPECTION' });
    const checkouts: string[] = [];
    const { kiosk, errors } = stubKiosk(async (url, init) => {
      if (url.endsWith('/checkins/vehicles/search')) {
        const { licensePlate } = JSON.parse(String(init.body)) as { licensePlate: string };
        return listOf([anpr, held].filter((visit) => visit.licensePlate === licensePlate));
      }
      if (init.method === 'PATCH') {
        checkouts.push(new URL(url).pathname);
        return json(200, { ...anpr, status: 'OUT', exit: { source: 'ANPR', at: new Date().toISOString() } });
      }
      return listOf([]);
    }, 'gate');
    kiosk.start();
    await kiosk.engine.syncNow();
    expect(await kiosk.vehicleExit('ANPR 1')).toMatchObject({
      ok: true,
      value: { serverId: anpr.checkinId, status: 'OUT' },
    });
    await kiosk.engine.syncNow();
    expect(checkouts).toEqual([`/v1/sites/1/checkins/vehicles/${anpr.checkinId}`]);
    expect(await kiosk.db.outbox.count()).toBe(0);

    expect(await kiosk.vehicleExit('HELD 2')).toMatchObject({
      ok: false,
      code: 'UNKNOWN_STATUS',
      message: expect.stringContaining('INSPECTION'),
    });
    expect(await kiosk.db.outbox.count()).toBe(0);
    expect(errors).toEqual([]);
    await kiosk.close();
  });
});
