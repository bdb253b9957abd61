import { beforeAll, describe, expect, it } from 'vitest';
import { apiClient } from '../support/http';
import { type OpenApiDocument, documentValidator, operationsOf } from '../support/openApiValidator';
import { serverAndWorld } from '../support/serverAndWorld';
import { staffClient } from '../support/staff';
import { TEST_ADMIN_TOKEN } from '../support/testServer';
import { phone, visitCodeOf } from '../support/visitPhone';

const harness = serverAndWorld();
let doc: OpenApiDocument;

beforeAll(async () => {
  doc = (await apiClient(harness.server.baseUrl).get<OpenApiDocument>('/v1/openapi.json')).body;
});

/** A request the server refuses: to `key`'s path (ids filled in), with a bad body (422) or query (400). */
interface Refusal {
  key: string;
  body?: unknown;
  query?: Record<string, string>;
  /** Sent with an owner's session cookie (session routes, and scopes no token has by default). */
  owner?: true;
  /** Sent from a visitor's phone: its visit key, to its site's visit code and its own visit. */
  visit?: true;
}

const person = { firstName: 'Ada', lastName: 'Lovelace' };
const keptNames = [
  { name: 'firstName', label: 'First name', type: 'text', required: true },
  { name: 'lastName', label: 'Last name', type: 'text', required: true },
];
const stray = { query: { unknown: '1' } };
const P = '/sites/{siteId}/checkins/people';
const V = '/sites/{siteId}/checkins/vehicles';

const refusals: Refusal[] = [
  { key: 'GET /sites', query: { limit: '0' } },
  { key: 'GET /sites/{siteId}', ...stray },
  { key: `GET ${P}/config`, ...stray },
  {
    key: `PUT ${P}/config`,
    body: { requiresApproval: false, fields: [keptNames[0], { ...keptNames[1], type: 'checkbox' }] },
  },
  {
    key: `PUT ${P}/config`,
    body: {
      requiresApproval: false,
      fields: [...keptNames, { name: 'floor', label: 'Floor', type: 'select', required: false }],
    },
  },
  { key: `PUT ${P}/config`, body: { requiresApproval: false, fields: [keptNames[0]] } },
  // Missing names, a fractional label id, a body field the server sets.
  { key: `POST ${P}`, body: { person: { email: 'ada@example.com' } } },
  { key: `POST ${P}`, body: { person: { firstName: ' ', lastName: 'Lovelace' } } },
  { key: `POST ${P}`, body: { person, labelIds: [1.5] } },
  { key: `POST ${P}`, body: { person, entry: { source: 'API' } } },
  { key: `GET ${P}`, query: { status: 'IN,NOPE' } },
  { key: `GET ${P}`, query: { limit: '1.5' } },
  { key: `GET ${P}/{checkinId}`, ...stray },
  { key: `GET ${P}/changes`, query: { limit: '0' } },
  { key: 'GET /events', query: { lastEventId: 'x'.repeat(65) } },
  { key: `GET ${P}/{checkinId}/badge.pdf`, ...stray },
  { key: `PATCH ${P}/{checkinId}`, body: { exit: { source: 'NOPE' } } },
  { key: `POST ${P}/{checkinId}/breaks/start`, body: { occurredAt: 'yesterday' } },
  { key: `POST ${P}/{checkinId}/breaks/end`, body: { occurredAt: 5 } },
  { key: `PUT ${P}/{checkinId}/breaks/end`, body: { when: 'now' } },
  { key: `POST ${P}/{checkinId}/checkout`, body: { exit: { source: 'NOPE' } } },
  { key: `PATCH ${P}/{checkinId}/checkout`, body: { exit: 'KIOSK' } },
  { key: `POST ${P}/{checkinId}/approve`, body: { occurredAt: '2026-13-01T00:00:00Z' } },
  { key: `POST ${P}/{checkinId}/deny`, body: { reason: 5 } },
  { key: 'POST /checkins/people/search', body: { status: ['NOPE'] } },
  { key: 'POST /checkins/people/search', body: { siteIds: [0] } },
  { key: 'POST /checkins/people/search', body: { overlapsFrom: '2026-11-25' } },
  { key: 'POST /labels/people', body: {} },
  { key: 'POST /labels/people', body: { name: '   ' } },
  { key: 'POST /labels/people', body: { name: 'Contractor', color: 'red' } },
  { key: 'GET /labels/people', query: { limit: 'many' } },
  { key: 'GET /labels/people/{labelId}', ...stray },
  { key: 'PATCH /labels/people/{labelId}', body: { color: 'blue' } },
  { key: 'DELETE /labels/people/{labelId}', ...stray },
  // A watchlist entry needs an identifier: a first name alone is none.
  { key: 'POST /watchlist/people', body: { reason: 'No identifier' } },
  { key: 'POST /watchlist/people', body: { firstName: 'Mallory' } },
  { key: 'GET /watchlist/people', query: { limit: '201' } },
  { key: 'PATCH /watchlist/people/{entryId}', body: { email: 'not-an-email' } },
  { key: 'DELETE /watchlist/people/{entryId}', ...stray },
  { key: 'GET /sites/{siteId}/kiosk/watchlist-digest', ...stray },
  { key: 'GET /sites/{siteId}/kiosk/people', query: { limit: '0' } },
  { key: 'POST /admin/accounts', body: {} },
  { key: 'POST /admin/accounts/{accountId}/sites', body: { name: '' } },
  { key: 'POST /admin/accounts/{accountId}/tokens', body: { name: 'Both', siteIds: [1], allSites: true } },
  { key: 'POST /admin/accounts/{accountId}/tokens', body: { name: 'Neither' } },
  {
    key: 'POST /admin/accounts/{accountId}/tokens',
    body: { name: 'Bad scope', allSites: true, scopes: ['everything'] },
  },
  { key: 'PATCH /admin/tokens/{tokenId}', body: { allSites: true, siteIds: [1] } },
  { key: 'DELETE /admin/tokens/{tokenId}', ...stray },
  // Plates: no letter or digit, too long once normalized, a character no plate has.
  { key: 'POST /profiles/vehicles', body: { licensePlate: '- -' } },
  { key: 'POST /profiles/vehicles', body: { licensePlate: 'ABCDEFGHIJ 1234567' } },
  { key: 'POST /profiles/vehicles', body: { licensePlate: 'AB_123' } },
  { key: 'GET /profiles/vehicles', query: { labelId: '1.5' } },
  { key: 'GET /profiles/vehicles', query: { licensePlate: 'AB#1' } },
  { key: 'GET /profiles/vehicles/changes', query: { limit: '0' } },
  { key: 'GET /profiles/vehicles/{vehicleId}', ...stray },
  { key: 'PUT /profiles/vehicles/{vehicleId}', body: { licensePlate: '...' } },
  { key: 'PUT /profiles/vehicles/{vehicleId}/labels', body: { labelIds: [0] } },
  { key: 'DELETE /profiles/vehicles/{vehicleId}', ...stray },
  { key: 'POST /labels/vehicles', body: { name: 'Blocked', blocksEntry: 'yes' } },
  { key: 'GET /labels/vehicles', query: { cursor: '' } },
  { key: 'GET /labels/vehicles/{labelId}', ...stray },
  { key: 'PATCH /labels/vehicles/{labelId}', body: { color: '#12345' } },
  { key: 'DELETE /labels/vehicles/{labelId}', ...stray },
  // Exactly one of vehicleId and licensePlate.
  { key: `POST ${V}`, body: { vehicleId: 1, licensePlate: 'AB 123' } },
  { key: `POST ${V}`, body: { driverName: 'Grace' } },
  { key: `POST ${V}`, body: { vehicleId: 2.5 } },
  { key: `GET ${V}`, query: { status: 'ON_BREAK' } },
  { key: `GET ${V}/{checkinId}`, ...stray },
  { key: `PATCH ${V}/{checkinId}`, body: { exit: { source: 'NOPE' } } },
  { key: `POST ${V}/{checkinId}/checkout`, body: { occurredAt: 'soon' } },
  { key: `PATCH ${V}/{checkinId}/checkout`, body: { exit: { source: 'GATE' } } },
  { key: `POST ${V}/{checkinId}/approve`, body: { reason: 'not taken here' } },
  { key: `POST ${V}/{checkinId}/deny`, body: { reason: ['x'] } },
  { key: 'POST /checkins/vehicles/search', body: { status: ['ON_BREAK'] } },
  { key: 'POST /checkins/vehicles/search', body: { licensePlate: '--' } },
  { key: 'POST /checkins/vehicles/search', body: { overlapsTo: 'tomorrow' } },
  {
    key: 'POST /webhooks/subscriptions',
    body: { url: 'ftp://hooks.example.com/x', events: ['VEHICLE_CHECKIN_ENTERED'] },
  },
  { key: 'POST /webhooks/subscriptions', body: { url: 'https://hooks.example.com/x', events: [] } },
  { key: 'GET /webhooks/subscriptions', query: { limit: '-1' } },
  { key: 'GET /webhooks/subscriptions/{subscriptionId}', ...stray },
  { key: 'PATCH /webhooks/subscriptions/{subscriptionId}', body: { events: ['NOPE'] } },
  { key: 'DELETE /webhooks/subscriptions/{subscriptionId}', ...stray },
  { key: 'GET /webhooks/subscriptions/{subscriptionId}/deliveries', query: { status: 'lost' } },
  { key: 'POST /webhooks/subscriptions/{subscriptionId}/deliveries/{deliveryId}/retry', ...stray },
  { key: 'POST /session', body: { email: 'olive@example.com' } },
  { key: 'GET /session', ...stray, owner: true },
  { key: 'DELETE /session', ...stray, owner: true },
  { key: 'PUT /session/password', body: { currentPassword: 'correct horse battery staple 7' }, owner: true },
  { key: 'GET /session/links/{code}', ...stray },
  { key: 'POST /session/setup', body: { code: 'x', name: 'Olive', email: 'olive@example.com' } },
  { key: 'POST /session/invitation', body: { code: 'x', password: 'short' } },
  { key: 'GET /users', ...stray, owner: true },
  { key: 'POST /users', body: { email: 'rita@example.com', name: 'Rita', role: 'boss', allSites: true }, owner: true },
  {
    key: 'POST /users',
    body: { email: 'rita at example.com', name: 'Rita', role: 'reception', allSites: true },
    owner: true,
  },
  { key: 'GET /users/{userId}', ...stray, owner: true },
  { key: 'PATCH /users/{userId}', body: { disabled: 'yes' }, owner: true },
  { key: 'POST /users/{userId}/password-reset', ...stray, owner: true },
  {
    key: 'POST /admin/accounts/{accountId}/users',
    body: { email: 'rita@example.com', name: 'Rita', role: 'boss', allSites: true },
  },
  { key: 'GET /alerts', query: { limit: '0' }, owner: true },
  { key: 'POST /alerts/{kind}/{checkinId}/acknowledge', ...stray, owner: true },
  { key: 'GET /audit-events', query: { actorType: 'robot' }, owner: true },
  { key: 'GET /checkins/people/export', query: { from: '2026-11-31', to: '2026-12-01' }, owner: true },
  { key: 'GET /checkins/people/export', query: { from: '2026-11-25', to: '2026-11-25', q: '' }, owner: true },
  { key: 'GET /checkins/vehicles/export', query: { from: '2026-11-25' }, owner: true },
  { key: 'GET /account/retention', ...stray, owner: true },
  { key: 'PUT /account/retention', body: { personDataDays: 0 }, owner: true },
  { key: 'POST /privacy/erasure', body: { phone: 5 }, owner: true },
  {
    key: 'GET /checkins/vehicles/export',
    query: { from: '2026-11-25', to: '2026-11-25', licensePlate: '--' },
    owner: true,
  },
  { key: 'POST /sites', body: { name: ' ', timezone: 'Mars/Olympus' } },
  { key: 'PATCH /sites/{siteId}', body: { archived: 'yes' } },
  { key: 'GET /tokens', query: { channel: 'ROBOT' }, owner: true },
  { key: 'POST /tokens', body: { name: 'Neither' }, owner: true },
  { key: 'POST /tokens', body: { name: 'Kiosk', allSites: true, channel: 'KIOSK' }, owner: true },
  { key: 'DELETE /tokens/{tokenId}', ...stray, owner: true },
  { key: 'GET /kiosks', query: { limit: '0' }, owner: true },
  { key: 'POST /kiosks', body: { siteId: 1, mode: 'tablet', name: 'Lobby' }, owner: true },
  { key: 'POST /kiosks/{kioskId}/pairing-code', ...stray, owner: true },
  { key: 'DELETE /kiosks/{kioskId}', ...stray, owner: true },
  { key: 'POST /kiosk/pair', body: { code: '' } },
  { key: 'POST /kiosk/heartbeat', body: { pending: -1, attention: 0, appVersion: '1.0.0' } },
  { key: 'GET /admin/accounts', query: { limit: '0' } },
  { key: 'GET /admin/accounts/{accountId}/sites', ...stray },
  { key: 'GET /admin/accounts/{accountId}/tokens', query: { cursor: '' } },
  { key: 'POST /hosts', body: { name: ' ', allSites: true } },
  { key: 'GET /hosts', query: { limit: '0' } },
  { key: 'GET /hosts/{hostId}', ...stray },
  { key: 'PATCH /hosts/{hostId}', body: { language: 'tlh' } },
  { key: 'DELETE /hosts/{hostId}', ...stray },
  { key: 'POST /hosts/import', ...stray },
  { key: 'GET /sites/{siteId}/kiosk/hosts', ...stray },
  { key: 'GET /notifications', query: { limit: '0' } },
  { key: 'GET /notifications/channels', ...stray },
  { key: 'POST /host-decisions/preview', body: { token: 'short' } },
  { key: 'POST /host-decisions', body: { token: 'c'.repeat(43), reason: 5 } },
  { key: 'POST /invitations', body: { siteId: 1, person: { firstName: ' ', lastName: 'L' }, expectedAt: 'soon' } },
  { key: 'GET /invitations', query: { status: 'maybe' } },
  { key: 'GET /invitations/{invitationId}', ...stray },
  { key: 'PATCH /invitations/{invitationId}', body: { purpose: 5 } },
  { key: 'POST /invitations/{invitationId}/cancel', ...stray },
  { key: 'POST /invitations/{invitationId}/resend', ...stray },
  { key: 'GET /invitations/{invitationId}/pass', ...stray },
  { key: 'POST /invitations/import', ...stray },
  { key: 'GET /pass-keys', ...stray },
  { key: 'POST /pass-keys/rotate', ...stray, owner: true },
  { key: 'GET /sites/{siteId}/kiosk/passes', ...stray },
  { key: 'POST /sites/{siteId}/visit-code', body: { code: 'MINE234567' } },
  { key: 'GET /sites/{siteId}/visit-poster.pdf', ...stray },
  { key: 'GET /visit/{code}', ...stray, visit: true },
  // A phone may not choose its labels, nor its time.
  { key: 'POST /visit/{code}/checkins', body: { person, labelIds: [1] }, visit: true },
  { key: 'POST /visit/{code}/checkins', body: { person, occurredAt: '2026-11-25T08:00:00Z' }, visit: true },
  { key: 'GET /visit/{code}/checkins/{checkinId}', ...stray, visit: true },
  { key: 'POST /visit/{code}/checkins/{checkinId}/breaks/start', body: { occurredAt: 'now' }, visit: true },
  { key: 'POST /visit/{code}/checkins/{checkinId}/breaks/end', body: { when: 'now' }, visit: true },
  { key: 'POST /visit/{code}/checkins/{checkinId}/checkout', body: { exit: { source: 'API' } }, visit: true },
];

describe('what the server refuses, the document refuses', () => {
  it('has a refused request for every operation', () => {
    const covered = new Set(refusals.map((refusal) => refusal.key));
    const missing = operationsOf(doc).filter((key) => key !== 'GET /openapi.json' && !covered.has(key));
    expect(missing).toEqual([]);
  });

  it('refuses each: the server with 422 (body) or 400 (query), the document by its schemas', async () => {
    const { world, server } = harness;
    const validator = documentValidator(doc);
    const ids: Record<string, number | string> = {
      siteId: world.siteId,
      accountId: world.accountId,
      kind: 'person',
      code: 'c'.repeat(43),
    };
    const owner = await staffClient(server, { accountId: world.accountId, role: 'owner' });
    const mine = phone(server.baseUrl);
    const code = await visitCodeOf(world.api, world.siteId);
    const visit = (await mine.checkIn(code, { person })).body;
    const visitIds: Record<string, number | string> = { ...ids, code, checkinId: visit.checkinId };
    const outcomes = await Promise.all(
      refusals.map(async (refusal) => {
        const [method = '', template = ''] = refusal.key.split(' ');
        const values = refusal.visit ? visitIds : ids;
        const path = template.replace(/\{(\w+)\}/g, (_, name: string) => String(values[name] ?? 1));
        const token = path.startsWith('/admin/') ? TEST_ADMIN_TOKEN : world.token;
        const search = refusal.query ? `?${new URLSearchParams(refusal.query)}` : '';
        const client = refusal.visit ? mine.api : refusal.owner ? owner.api : apiClient(server.baseUrl, token);
        const response = await client.request<{ code: string }>(method, `/v1${path}${search}`, { body: refusal.body });
        const documentRefuses =
          refusal.body !== undefined
            ? validator.refusesBody(refusal.key, refusal.body)
            : validator.refusesQuery(refusal.key, refusal.query ?? {});
        // And the refusal itself is a response the document describes.
        const answerDocumented = validator.responseErrors(refusal.key, response.status, response.body).length === 0;
        return {
          request: JSON.stringify(refusal),
          status: response.status,
          code: response.body.code,
          documentRefuses,
          answerDocumented,
        };
      }),
    );
    const expected = refusals.map((refusal) => ({
      request: JSON.stringify(refusal),
      status: refusal.body !== undefined ? 422 : 400,
      code: refusal.body !== undefined ? 'VALIDATION_FAILED' : 'INVALID_QUERY',
      documentRefuses: true,
      answerDocumented: true,
    }));
    expect(outcomes).toEqual(expected);
  });

  it('accepts the examples it shows (the checks above can pass)', () => {
    const validator = documentValidator(doc);
    expect(validator.refusesBody(`POST ${V}`, { licensePlate: 'B-GH 1234' })).toBe(false);
    expect(validator.refusesBody(`POST ${P}`, { person })).toBe(false);
    expect(validator.refusesQuery(`GET ${P}`, { status: 'IN,ON_BREAK', limit: '10' })).toBe(false);
  });
});
