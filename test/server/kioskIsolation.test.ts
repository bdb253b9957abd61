import { beforeAll, describe, expect, it } from 'vitest';
import type { KioskMode, PairedKiosk } from '../../shared/src/schemas/kiosks';
import type { PersonCheckin } from '../../shared/src/schemas/personCheckins';
import type { VehicleCheckin, Vehicle } from '../../shared/src/schemas/vehicles';
import { queryRows } from '../../server/src/db/query';
import { sql } from '../../server/src/db/sql';
import { routes } from '../../server/src/routes';
import type { Route } from '../../server/src/routes/define';
import { type ApiClient, apiClient } from '../support/http';
import { pairedKiosk } from '../support/kiosks';
import { serverAndWorld } from '../support/serverAndWorld';
import { staffClient } from '../support/staff';

// Issue 31 (CONTRACT §27): a kiosk's token does its mode's job and nothing else. Every route of the table
// (so a route added later is covered too) is called with a visitor kiosk's and a gate's token, on their own
// site and on another site of the account: only the §27 set may answer 2xx.
const harness = serverAndWorld({ env: { SIGNIN_FAILURES_PER_ADDRESS: '1000' } });

/** What each mode may do (method and route path), besides the routes every token may call. */
const ALLOWED: Record<KioskMode, ReadonlySet<string>> = {
  visitor: new Set([
    'GET /sites/:siteId/checkins/people/config',
    'POST /sites/:siteId/checkins/people',
    'POST /sites/:siteId/checkins/people/:checkinId/breaks/start',
    'POST /sites/:siteId/checkins/people/:checkinId/breaks/end',
    'PUT /sites/:siteId/checkins/people/:checkinId/breaks/end',
    'PATCH /sites/:siteId/checkins/people/:checkinId',
    'POST /sites/:siteId/checkins/people/:checkinId/checkout',
    'PATCH /sites/:siteId/checkins/people/:checkinId/checkout',
    'GET /sites/:siteId/kiosk/watchlist-digest',
    'GET /sites/:siteId/kiosk/people',
    // Its Roll call kept by changes (docs/api.md, People change feed).
    'GET /sites/:siteId/checkins/people/changes',
    'GET /sites/:siteId/kiosk/hosts',
    'GET /sites/:siteId/kiosk/passes',
    // The badge of a visitor on site, which the kiosk prints after their check-in.
    'GET /sites/:siteId/checkins/people/:checkinId/badge.pdf',
  ]),
  gate: new Set([
    'POST /sites/:siteId/checkins/vehicles',
    'GET /sites/:siteId/checkins/vehicles',
    // The one visit an event names, re-read (docs/event-stream-clients.md).
    'GET /sites/:siteId/checkins/vehicles/:checkinId',
    'PATCH /sites/:siteId/checkins/vehicles/:checkinId',
    'POST /sites/:siteId/checkins/vehicles/:checkinId/checkout',
    'PATCH /sites/:siteId/checkins/vehicles/:checkinId/checkout',
    'POST /sites/:siteId/checkins/vehicles/:checkinId/approve',
    'POST /sites/:siteId/checkins/vehicles/:checkinId/deny',
    'POST /checkins/vehicles/search',
    'GET /profiles/vehicles/changes',
  ]),
};
/** Any token may call these: its own sites, its own heartbeat, its live events. */
const EVERY_TOKEN = new Set(['GET /sites', 'GET /sites/:siteId', 'POST /kiosk/heartbeat', 'GET /events']);

const keyOf = (route: Route) => `${route.method} ${route.path}`;

interface Ids {
  siteId: number;
  otherSiteId: number;
  person: number;
  vehicleCheckin: number;
  vehicle: number;
  personLabel: number;
  vehicleLabel: number;
  entry: number;
  userId: number;
  tokenId: number;
  kioskId: number;
}
let ids: Ids;
const kiosks: Partial<Record<KioskMode, ApiClient>> = {};

beforeAll(async () => {
  const { world, server } = harness;
  // The account has an owner, as every account in use does (their user id fills :userId).
  await staffClient(server, { accountId: world.accountId, role: 'owner' });
  const person = await world.api.post<PersonCheckin>(`/v1/sites/${world.siteId}/checkins/people`, {
    person: { firstName: 'Ada', lastName: 'Lovelace', email: 'ada@example.com' },
  });
  const vehicle = await world.api.post<Vehicle>('/v1/profiles/vehicles', { licensePlate: 'ISO 1' });
  const visit = await world.api.post<VehicleCheckin>(`/v1/sites/${world.siteId}/checkins/vehicles`, {
    licensePlate: 'PND 9',
  });
  const personLabel = await world.api.post<{ labelId: number }>('/v1/labels/people', { name: 'VIP' });
  const vehicleLabel = await world.api.post<{ labelId: number }>('/v1/labels/vehicles', { name: 'Fleet' });
  const entry = await world.api.post<{ entryId: number }>('/v1/watchlist/people', { email: 'x@example.com' });
  const rows = await queryRows<{ user_id: number; token_id: number; kiosk_id: number }>(
    server.database,
    sql`SELECT (SELECT max(id) FROM staff_users WHERE account_id = ${world.accountId}) AS user_id,
               (SELECT max(id) FROM api_tokens WHERE account_id = ${world.accountId}) AS token_id, 0 AS kiosk_id`,
  );
  for (const mode of ['visitor', 'gate'] as const) {
    const paired: PairedKiosk = await pairedKiosk(server, { accountId: world.accountId, siteId: world.siteId, mode });
    kiosks[mode] = apiClient(server.baseUrl, paired.token);
  }
  const kioskRow = await queryRows<{ id: number }>(
    server.database,
    sql`SELECT id FROM kiosks WHERE account_id = ${world.accountId} ORDER BY id LIMIT 1`,
  );
  ids = {
    siteId: world.siteId,
    otherSiteId: world.otherSiteId,
    person: person.body.checkinId,
    vehicleCheckin: visit.body.checkinId,
    vehicle: vehicle.body.vehicleId,
    personLabel: personLabel.body.labelId,
    vehicleLabel: vehicleLabel.body.labelId,
    entry: entry.body.entryId,
    userId: rows[0]?.user_id ?? 1,
    tokenId: rows[0]?.token_id ?? 1,
    kioskId: kioskRow[0]?.id ?? 1,
  };
});

/** The route's path with real ids of this account (on `siteId`), and its example body and query. */
function requestOf(route: Route, siteId: number) {
  const vehicleRoute = route.path.includes('/vehicles') && !route.path.includes('/labels');
  const values: Record<string, string> = {
    siteId: String(siteId),
    checkinId: String(vehicleRoute ? ids.vehicleCheckin : ids.person),
    vehicleId: String(ids.vehicle),
    labelId: String(route.path.includes('/labels/vehicles') ? ids.vehicleLabel : ids.personLabel),
    entryId: String(ids.entry),
    userId: String(ids.userId),
    tokenId: String(ids.tokenId),
    kioskId: String(ids.kioskId),
    subscriptionId: '1',
    deliveryId: '1',
    kind: 'person',
  };
  const path = route.path.replace(/:(\w+)/g, (_, name: string) => values[name] ?? '1');
  const query = route.examples.query ? `?${new URLSearchParams(route.examples.query).toString()}` : '';
  return { path: `/v1${path}${query}`, body: route.examples.request };
}

// The event stream never ends, so it is not read here to its end: liveIsolation.test.ts holds it to the token's sites.
const kioskRoutes = routes.filter(
  (route) => (route.auth === 'token' || route.auth === 'session') && route.path !== '/events',
);

describe.each(['visitor', 'gate'] as const)('a %s kiosk’s token against every route', (mode) => {
  it('answers 2xx only for its mode’s job (§27), and never on another site of the account', async () => {
    const api = kiosks[mode];
    if (!api) throw new Error('no kiosk');
    const wrong: string[] = [];
    for (const route of kioskRoutes) {
      const key = keyOf(route);
      const allowed = ALLOWED[mode].has(key) || EVERY_TOKEN.has(key);
      const own = requestOf(route, ids.siteId);
      const answer = await api.request(route.method, own.path, { body: own.body });
      const ok = answer.status >= 200 && answer.status < 300;
      if (!allowed && ok) wrong.push(`${key} answered ${answer.status}`);
      if (allowed && answer.status === 403) wrong.push(`${key} refused its own job (403)`);
      if (route.path.includes(':siteId')) {
        const other = requestOf(route, ids.otherSiteId);
        const elsewhere = await api.request(route.method, other.path, { body: other.body });
        if (elsewhere.status >= 200 && elsewhere.status < 300)
          wrong.push(`${key} on another site: ${elsewhere.status}`);
      }
    }
    expect(wrong).toEqual([]);
  });
});

describe('the audit’s reproductions (issue 31)', () => {
  it('H2: a visitor kiosk cannot clear a banned vehicle’s labels or delete a vehicle', async () => {
    const { world } = harness;
    const banned = await world.api.post<{ labelId: number }>('/v1/labels/vehicles', {
      name: 'Banned',
      blocksEntry: true,
    });
    const van = await world.api.post<Vehicle>('/v1/profiles/vehicles', {
      licensePlate: 'BAN 1',
      labelIds: [banned.body.labelId],
    });
    const visitor = kiosks.visitor as ApiClient;
    const cleared = await visitor.put(`/v1/profiles/vehicles/${van.body.vehicleId}/labels`, { labelIds: [] });
    expect(cleared.status).toBe(403);
    expect((await visitor.delete(`/v1/profiles/vehicles/${van.body.vehicleId}`)).status).toBe(403);
    // Nor can a gate: it lets vehicles in and out, it does not edit them.
    const gate = kiosks.gate as ApiClient;
    expect((await gate.put(`/v1/profiles/vehicles/${van.body.vehicleId}/labels`, { labelIds: [] })).status).toBe(403);
    const read = await world.api.get<Vehicle>(`/v1/profiles/vehicles/${van.body.vehicleId}`);
    expect(read.body.labelIds).toEqual([banned.body.labelId]);
  });

  it('M1: a visitor kiosk cannot approve a pending person (nor a gate)', async () => {
    const { world } = harness;
    await world.api.put(`/v1/sites/${world.siteId}/checkins/people/config`, {
      requiresApproval: true,
      fields: [
        { name: 'firstName', label: 'First name', type: 'text', required: true },
        { name: 'lastName', label: 'Last name', type: 'text', required: true },
      ],
    });
    const pending = await world.api.post<PersonCheckin>(`/v1/sites/${world.siteId}/checkins/people`, {
      person: { firstName: 'Pat', lastName: 'Pending' },
    });
    expect(pending.body.status).toBe('PENDING');
    for (const api of [kiosks.visitor, kiosks.gate] as ApiClient[]) {
      const approved = await api.post(`/v1/sites/${world.siteId}/checkins/people/${pending.body.checkinId}/approve`);
      expect(approved.status).toBe(403);
    }
  });

  it("a visitor kiosk does not read the site's history with emails: only who is on site, without contact data", async () => {
    const { world, server } = harness;
    const visitor = kiosks.visitor as ApiClient;
    expect((await visitor.get(`/v1/sites/${world.siteId}/checkins/people`)).status).toBe(403);
    expect((await visitor.post('/v1/checkins/people/search', {})).status).toBe(403);
    const old = await world.api.post<PersonCheckin>(`/v1/sites/${world.siteId}/checkins/people`, {
      person: { firstName: 'Olga', lastName: 'Oldvisit', email: 'olga@example.com' },
    });
    await world.api.post(`/v1/sites/${world.siteId}/checkins/people/${old.body.checkinId}/approve`);
    await world.api.patch(`/v1/sites/${world.siteId}/checkins/people/${old.body.checkinId}`, {});
    await queryRows(
      server.database,
      sql`UPDATE person_checkins SET last_event_at = now() - interval '2 days' WHERE id = ${old.body.checkinId}`,
    );
    const here = await world.api.post<PersonCheckin>(`/v1/sites/${world.siteId}/checkins/people`, {
      person: { firstName: 'Hana', lastName: 'Here', email: 'hana@example.com', phone: '+1 555 0100' },
    });
    const listed = await visitor.get<{ data: Array<Record<string, unknown>> }>(
      `/v1/sites/${world.siteId}/kiosk/people`,
    );
    expect(listed.status).toBe(200);
    expect(listed.text).not.toContain('@example.com');
    expect(listed.text).not.toContain('Oldvisit');
    const shown = listed.body.data.find((visit) => visit.checkinId === here.body.checkinId);
    expect(shown).toMatchObject({ person: { firstName: 'Hana', lastName: 'Here' } });
    expect(Object.keys((shown?.person as object | undefined) ?? {}).sort()).toEqual([
      'company',
      'firstName',
      'lastName',
    ]);
    expect(listed.text).not.toContain('555');
    // A visit outside its window does not exist for the kiosk: no 409 with the whole check-in as `current`.
    const late = await visitor.patch(`/v1/sites/${world.siteId}/checkins/people/${old.body.checkinId}`, {});
    expect(late.status).toBe(404);
    expect(late.text).not.toContain('olga@example.com');
  });
});

describe('the gate reads one vehicle visit of its site (issue 38: the visit an event names)', () => {
  it('on site or of the last day only: one that left before is a 404, as is a person visit (403) or another site', async () => {
    const { world, server } = harness;
    const gate = kiosks.gate as ApiClient;
    const path = (siteId: number, checkinId: number) => `/v1/sites/${siteId}/checkins/vehicles/${checkinId}`;
    const here = await world.api.post<VehicleCheckin>(`/v1/sites/${world.siteId}/checkins/vehicles`, {
      licensePlate: 'RD 1',
    });
    const read = await gate.get<VehicleCheckin>(path(world.siteId, here.body.checkinId));
    expect(read.status).toBe(200);
    expect(read.body).toMatchObject({ checkinId: here.body.checkinId, status: 'PENDING' });

    const left = await world.api.post<VehicleCheckin>(`/v1/sites/${world.siteId}/checkins/vehicles`, {
      licensePlate: 'RD 2',
    });
    expect((await world.api.patch(path(world.siteId, left.body.checkinId), {})).status).toBe(200);
    // Left today: the gate still sees it (its result card may follow it to OUT).
    expect((await gate.get(path(world.siteId, left.body.checkinId))).status).toBe(200);
    await queryRows(
      server.database,
      sql`UPDATE vehicle_checkins SET last_event_at = now() - interval '2 days' WHERE id = ${left.body.checkinId}`,
    );
    expect((await gate.get(path(world.siteId, left.body.checkinId))).status).toBe(404);
    expect((await world.api.get(path(world.siteId, left.body.checkinId))).status).toBe(200);

    const elsewhere = await world.api.post<VehicleCheckin>(`/v1/sites/${world.otherSiteId}/checkins/vehicles`, {
      licensePlate: 'RD 3',
    });
    expect([403, 404]).toContain((await gate.get(path(world.otherSiteId, elsewhere.body.checkinId))).status);
    expect((await gate.get(path(world.siteId, elsewhere.body.checkinId))).status).toBe(404);
    expect((await gate.get(`/v1/sites/${world.siteId}/checkins/people/${ids.person}`)).status).toBe(403);
    expect((await (kiosks.visitor as ApiClient).get(path(world.siteId, here.body.checkinId))).status).toBe(403);
  });
});
