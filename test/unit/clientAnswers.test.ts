import { describe, expect, it } from 'vitest';
import { type ApiClient, createApiClient, isKnown } from '../../shared/src/client';
import type { HttpOutcome } from '../../shared/src/client/http';
import { personStatuses } from '../../shared/src/domain';

// The typed client against a server newer than it: v1 grows by adding optional fields and enum values
// (docs/api.md, Basics), and an answer that grew must still be usable.

const at = '2026-11-21T09:00:00.000Z';
const person = {
  checkinId: 42,
  siteId: 1,
  status: 'OUT',
  person: { firstName: 'Ada', lastName: 'Lovelace', email: 'ada@example.com', phone: null, company: 'ACME' },
  hostName: 'Grace',
  hostId: 7,
  purpose: 'Meeting',
  customFields: { badgeNumber: '17', nda: true },
  labelIds: [3],
  entry: { source: 'KIOSK', at },
  exit: { source: 'API', at },
  denyReason: null,
  badgeCode: 'q3Zr8LwT0bXy4KcN',
  language: 'de',
  invitationId: null,
  pendingReason: null,
  breaks: [{ breakId: 7, startedAt: at, endedAt: at }],
  decidedBy: { type: 'user', id: 2, name: 'Rita' },
  decidedAt: at,
  createdAt: at,
  updatedAt: at,
};
const vehicle = {
  checkinId: 9,
  siteId: 1,
  vehicleId: 4,
  licensePlate: 'AB-123',
  status: 'IN',
  driverName: null,
  notes: null,
  entry: { source: 'KIOSK', at },
  exit: null,
  denyReason: null,
  stopReason: null,
  decidedBy: null,
  decidedAt: null,
  createdAt: at,
  updatedAt: at,
};
const config = {
  siteId: 1,
  version: 3,
  requiresApproval: true,
  fields: [
    { name: 'firstName', label: 'First name', type: 'text', required: true },
    { name: 'visitType', label: 'Visit type', type: 'select', required: false, options: ['Meeting', 'Delivery'] },
  ],
};
const page = (item: unknown) => ({ data: [item], nextCursor: 'next' });

/** The answer with a field this client does not know added to every object, as a newer server may send it. */
function grown(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(grown);
  if (value === null || typeof value !== 'object') return value;
  // customFields is the site's own record of fields, not the API's: a new key there is a new field's value.
  const entries = Object.entries(value).map(([key, item]: [string, unknown]) => [
    key,
    key === 'customFields' ? item : grown(item),
  ]);
  return { ...Object.fromEntries(entries), addedLater: { by: 'a newer server', values: [1, 2] } };
}

function clientAnswering(status: number, body: unknown, contentType = 'application/json'): ApiClient {
  return createApiClient({
    baseUrl: 'http://api.test',
    token: 'ck_test',
    now: () => Date.now(),
    fetch: async () => new Response(JSON.stringify(body), { status, headers: { 'Content-Type': contentType } }),
  });
}

const valueOf = <T>(outcome: HttpOutcome<T>): T => {
  if (outcome.kind !== 'ok') throw new Error(`expected an answer, got ${JSON.stringify(outcome)}`);
  return outcome.value;
};

const timed = { occurredAt: at };
const calls: Array<[string, unknown, (api: ApiClient) => Promise<HttpOutcome<unknown>>]> = [
  [
    'listSites',
    page({
      siteId: 1,
      name: 'HQ',
      timezone: 'UTC',
      archivedAt: null,
      badge: { enabled: true, size: '89x36' },
      defaultLanguage: 'ar',
      visit: { code: 'K7QP3XMN2R', requiresApproval: true },
    }),
    (api) => api.listSites(),
  ],
  ['getCheckinConfig', config, (api) => api.getCheckinConfig(1)],
  ['createPersonCheckin', person, (api) => api.createPersonCheckin(1, { person: { firstName: 'Ada' } }, 'k1')],
  ['personAction', person, (api) => api.personAction(1, 42, 'breaks/start', timed, 'k2')],
  ['checkoutPerson', person, (api) => api.checkoutPerson(1, 42, timed, 'k3')],
  ['listPeople', page(person), (api) => api.listPeople(1, { status: ['IN'] })],
  ['createVehicleCheckin', vehicle, (api) => api.createVehicleCheckin(1, { licensePlate: 'AB-123' }, 'k4')],
  ['checkoutVehicle', vehicle, (api) => api.checkoutVehicle(1, 9, timed, 'k5')],
  ['listVehicles', page(vehicle), (api) => api.listVehicles(1, {})],
  ['searchVehicles', page(vehicle), (api) => api.searchVehicles({ licensePlate: 'AB-123' })],
];

describe('the typed client reading answers of a newer server', () => {
  it.each(calls)(
    '%s: fields it does not know, at any depth, are dropped and the answer is used',
    async (_name, answer, call) => {
      expect(valueOf(await call(clientAnswering(200, grown(answer))))).toEqual(answer);
    },
  );

  it('reads a refusal with fields it does not know as the refusal it is', async () => {
    const problem = {
      type: 'urn:problem:checkin-closed',
      title: 'Check-in closed',
      status: 409,
      detail: 'Check-in 42 is closed.',
      code: 'CHECKIN_CLOSED',
      instance: '/v1/sites/1/checkins/people/42',
      requestId: 'r1',
      current: person,
    };
    const outcome = await clientAnswering(409, grown(problem), 'application/problem+json').checkoutPerson(
      1,
      42,
      {},
      'k6',
    );
    expect(outcome).toMatchObject({ kind: 'refused', status: 409, problem: { code: 'CHECKIN_CLOSED' } });
  });

  it('keeps a status and sources newer than it as the text they came as', async () => {
    const newer = { ...person, status: 'ESCORTED', entry: { source: 'BADGE', at }, exit: { source: 'TURNSTILE', at } };
    const checkin = valueOf(await clientAnswering(200, newer).personAction(1, 42, 'breaks/end', timed, 'k7'));
    expect([checkin.status, checkin.entry.source, checkin.exit?.source]).toEqual(['ESCORTED', 'BADGE', 'TURNSTILE']);
    expect(isKnown(personStatuses, checkin.status)).toBe(false);

    const visits = valueOf(
      await clientAnswering(200, {
        data: [{ ...vehicle, status: 'INSPECTION' }, vehicle],
        nextCursor: null,
      }).listVehicles(1, {}),
    );
    expect(visits.data.map((visit) => visit.status)).toEqual(['INSPECTION', 'IN']);
  });

  it('reads a site of a server from before archiving (badges, languages, phone check-ins) as not archived, all off, English', async () => {
    const sites = valueOf(await clientAnswering(200, page({ siteId: 1, name: 'HQ', timezone: 'UTC' })).listSites());
    expect(sites.data).toEqual([
      {
        siteId: 1,
        name: 'HQ',
        timezone: 'UTC',
        archivedAt: null,
        badge: { enabled: false, size: '62x100' },
        defaultLanguage: 'en',
        visit: { code: '', requiresApproval: false },
      },
    ]);
  });

  it('reads a language newer than it as none it knows: a site speaks English, a check-in names none', async () => {
    const site = { siteId: 1, name: 'HQ', timezone: 'UTC', archivedAt: null, defaultLanguage: 'pt' };
    expect(valueOf(await clientAnswering(200, page(site)).listSites()).data[0]?.defaultLanguage).toBe('en');
    const checkin = valueOf(
      await clientAnswering(200, { ...person, language: 'pt' }).checkoutPerson(1, 42, timed, 'k'),
    );
    expect(checkin.language).toBeNull();
  });

  it('keeps a configured field of a type newer than it, with that type', async () => {
    const newer = {
      ...config,
      fields: [...config.fields, { name: 'idPhoto', label: 'ID photo', type: 'photo', required: false }],
    };
    const read = valueOf(await clientAnswering(200, newer).getCheckinConfig(1));
    expect(read.fields.map((field) => field.type)).toEqual(['text', 'select', 'photo']);
  });

  it('getCheckinConfig: a server from before form versions sends none, read as null', async () => {
    const { version: _version, ...older } = config;
    expect(valueOf(await clientAnswering(200, older).getCheckinConfig(1)).version).toBeNull();
  });

  it.each([
    ['a status that is not text', { ...person, status: 42 }],
    ['an empty source', { ...person, entry: { source: '', at } }],
    ['no checkinId', { ...person, checkinId: undefined }],
    ['a time that is not RFC 3339', { ...person, updatedAt: 'yesterday' }],
  ])('still finds an answer with %s malformed', async (_what, answer) => {
    expect(await clientAnswering(200, answer).checkoutPerson(1, 42, {}, 'k8')).toMatchObject({
      kind: 'malformed',
      status: 200,
    });
  });
});
