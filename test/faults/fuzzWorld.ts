import { expect } from 'vitest';
import { type Executor, queryOne, queryRows } from '../../server/src/db/query';
import { isKioskScope, scopes } from '../../shared/src/schemas/admin';
import { type World, buildToken, buildWorld } from '../support/factories';
import { apiClient } from '../support/http';
import { TEST_ADMIN_TOKEN, type TestServer } from '../support/testServer';
import { raw, sql } from '../../server/src/db/sql';

/** A seeded world with one of everything, so every path parameter has a valid value to try. */
export interface FuzzWorld {
  world: World;
  ids: {
    personCheckin: number;
    vehicleCheckin: number;
    personLabel: number;
    vehicleLabel: number;
    vehicle: number;
    watchlistEntry: number;
    subscription: number;
    /** A token of its own: a fuzzed DELETE or PATCH on it must not lock the fuzzer's token out. */
    spareToken: number;
  };
}

async function created(
  response: Promise<{ status: number; body: unknown; text: string }>,
  field: string,
): Promise<number> {
  const answer = await response;
  expect(answer.status, answer.text).toBe(201);
  const value = (answer.body as Record<string, unknown>)[field];
  if (typeof value !== 'number') throw new Error(`no ${field} in ${answer.text}`);
  return value;
}

export async function seedFuzzWorld(server: TestServer): Promise<FuzzWorld> {
  const built = await buildWorld(server);
  // Every scope an API token may hold, the staff ones too, so the fuzzer reaches past authorization on every
  // route (the kiosk scopes belong to one-site KIOSK tokens only).
  const full = await buildToken(server, {
    accountId: built.accountId,
    allSites: true,
    scopes: scopes.filter((scope) => !isKioskScope(scope)),
  });
  const world: World = { ...built, token: full.token, api: apiClient(server.baseUrl, full.token) };
  const { api } = world;
  const admin = apiClient(server.baseUrl, TEST_ADMIN_TOKEN);
  return {
    world,
    ids: {
      personCheckin: await created(
        api.post(`/v1/sites/${world.siteId}/checkins/people`, { person: { firstName: 'Fuzz', lastName: 'Seed' } }),
        'checkinId',
      ),
      vehicleCheckin: await created(
        api.post(`/v1/sites/${world.siteId}/checkins/vehicles`, { licensePlate: 'FUZZ 1' }),
        'checkinId',
      ),
      personLabel: await created(api.post('/v1/labels/people', { name: 'Fuzz label' }), 'labelId'),
      vehicleLabel: await created(api.post('/v1/labels/vehicles', { name: 'Fuzz vehicle label' }), 'labelId'),
      vehicle: await created(api.post('/v1/profiles/vehicles', { licensePlate: 'FUZZ 2' }), 'vehicleId'),
      watchlistEntry: await created(api.post('/v1/watchlist/people', { email: 'watched@example.com' }), 'entryId'),
      subscription: await created(
        api.post('/v1/webhooks/subscriptions', { url: 'http://127.0.0.1:9/hook', events: ['PERSON_CHECKIN_ENTERED'] }),
        'subscriptionId',
      ),
      spareToken: await created(
        admin.post(`/v1/admin/accounts/${world.accountId}/tokens`, { name: 'Spare', allSites: true }),
        'tokenId',
      ),
    },
  };
}

/** A valid value for path parameter `name` of the route at `path`. */
export function validParam(fuzz: FuzzWorld, path: string, name: string): number {
  const { world, ids } = fuzz;
  const vehicleSide = path.includes('/vehicles');
  switch (name) {
    case 'siteId':
      return world.siteId;
    case 'accountId':
      return world.accountId;
    case 'checkinId':
      return vehicleSide ? ids.vehicleCheckin : ids.personCheckin;
    case 'labelId':
      return vehicleSide ? ids.vehicleLabel : ids.personLabel;
    case 'vehicleId':
      return ids.vehicle;
    case 'entryId':
      return ids.watchlistEntry;
    case 'subscriptionId':
      return ids.subscription;
    case 'tokenId':
      return ids.spareToken;
    default:
      // deliveryId and anything new: a plausible id that names nothing yet.
      return 1;
  }
}

const fields = [
  { name: 'firstName', label: 'First name', type: 'text', required: true },
  { name: 'lastName', label: 'Last name', type: 'text', required: true },
];

/** A valid body per route (`METHOD /path`), for the fuzzer to mutate one part of; routes not listed start from {}. */
export const EXAMPLE_BODIES: Record<string, unknown> = {
  'POST /sites/:siteId/checkins/people': {
    person: { firstName: 'Ada', lastName: 'Lovelace', email: 'ada@example.com' },
    labelIds: [],
    occurredAt: new Date().toISOString(),
  },
  'PUT /sites/:siteId/checkins/people/config': { requiresApproval: false, fields },
  'POST /checkins/people/search': { siteIds: [1], status: ['IN'], from: '2020-01-01T00:00:00Z', q: 'a', limit: 10 },
  'POST /checkins/vehicles/search': { siteIds: [1], licensePlate: 'AB 12', status: ['IN'], limit: 10 },
  'POST /sites/:siteId/checkins/vehicles': { licensePlate: 'ZZ 99', driverName: 'Dee', notes: 'n' },
  'POST /labels/people': { name: 'L', color: '#112233' },
  'PATCH /labels/people/:labelId': { name: 'L2', color: null },
  'POST /labels/vehicles': { name: 'V', blocksEntry: false },
  'PATCH /labels/vehicles/:labelId': { name: 'V2' },
  'POST /watchlist/people': { email: 'w@example.com', phone: '+44 1', firstName: 'A', lastName: 'B', reason: 'r' },
  'POST /profiles/vehicles': { licensePlate: 'XY 1', make: 'M', labelIds: [] },
  'PUT /profiles/vehicles/:vehicleId': { make: null, licensePlate: 'XY 2' },
  'PUT /profiles/vehicles/:vehicleId/labels': { labelIds: [1] },
  'POST /admin/accounts': { name: 'Acc' },
  'POST /admin/accounts/:accountId/sites': { name: 'S', timezone: 'Europe/London' },
  'POST /admin/accounts/:accountId/tokens': { name: 'T', siteIds: [1], channel: 'KIOSK', mode: 'visitor' },
  'PATCH /admin/tokens/:tokenId': { scopes: ['checkins:read'], siteIds: [1] },
  'POST /webhooks/subscriptions': {
    url: 'http://127.0.0.1:9/x',
    events: ['PERSON_CHECKIN_ENTERED'],
    siteIds: [1],
    description: 'd',
  },
  'PATCH /webhooks/subscriptions/:subscriptionId': { enabled: false, siteIds: null },
  'POST /sites/:siteId/checkins/people/:checkinId/deny': { reason: 'no' },
  'PATCH /sites/:siteId/checkins/people/:checkinId': { exit: { source: 'API' }, occurredAt: new Date().toISOString() },
  'POST /session': { email: 'fuzz@example.com', password: 'not the password at all' },
  'PUT /session/password': { currentPassword: 'not the password at all', newPassword: 'a new long passphrase' },
  'POST /session/setup': {
    code: 'A'.repeat(43),
    name: 'Owner',
    email: 'owner@example.com',
    password: 'a new long passphrase',
  },
  'POST /session/invitation': { code: 'A'.repeat(43), name: 'Invited', password: 'a new long passphrase' },
  'POST /users': { email: 'staff@example.com', name: 'Staff', role: 'reception', siteIds: [1] },
  'PATCH /users/:userId': { role: 'security', disabled: false },
  'POST /admin/accounts/:accountId/users': { email: 'auto@example.com', name: 'Auto', role: 'owner', allSites: true },
  'POST /sites': { name: 'S', timezone: 'Europe/London' },
  'PATCH /sites/:siteId': { name: 'S2', archived: false },
  'POST /tokens': { name: 'T', siteIds: [1], scopes: ['checkins:read'] },
  'POST /kiosks': { siteId: 1, mode: 'visitor', name: 'K' },
  'POST /kiosk/pair': { code: 'ABCD-2345' },
  'POST /kiosk/heartbeat': { pending: 0, attention: 0, appVersion: '1.0.0' },
};

/**
 * Row counts of every table but the rate limiter's (usage accounting, written by a timer, not by requests)
 * and the sign-in and pairing failures' (a refused sign-in or pairing code is counted by design: that is the throttle).
 */
export async function rowCounts(db: Executor): Promise<Record<string, number>> {
  const tables = await queryRows<{ name: string }>(
    db,
    sql`SELECT tablename AS name FROM pg_tables WHERE schemaname = 'public' AND tablename NOT IN ('rate_limit_windows', 'signin_failures', 'pairing_failures') ORDER BY tablename`,
  );
  const columns = tables.map(({ name }) => `(SELECT count(*)::int FROM "${name}") AS "${name}"`).join(', ');
  return (await queryOne<Record<string, number>>(db, sql`SELECT ${raw(columns)}`)) ?? {};
}
