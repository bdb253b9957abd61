import { describe, expect, it } from 'vitest';
import { createApiClient } from '../../shared/src/client';
import { createStaffClient } from '../../shared/src/client/staff';
import type { StaffUserAnswer } from '../../shared/src/client/staff';
import { onSiteRows } from '../../console/onSite/rows';
import { permissionsOf } from '../../console/session/permissions';

// The console's side of the typed client: cookie sessions (no bearer token), 204 answers, what a role sees.

type Sent = { url: string; init: RequestInit };

function recording(status: number, body: string | null, contentType = 'application/json') {
  const sent: Sent[] = [];
  const fetch = async (url: string, init: RequestInit) => {
    sent.push({ url, init });
    return new Response(body, { status, headers: body === null ? {} : { 'Content-Type': contentType } });
  };
  return { sent, options: { baseUrl: 'https://gate.example', fetch, now: () => 0 } };
}

const headerOf = (sent: Sent | undefined, name: string) => new Headers(sent?.init.headers).get(name);

describe('the client without a token (a signed-in browser)', () => {
  it('sends no Authorization header (a token, when given, as before)', async () => {
    const { sent, options } = recording(200, JSON.stringify({ data: [], nextCursor: null }));
    await createApiClient(options).listSites();
    expect(headerOf(sent[0], 'Authorization')).toBeNull();
    const withToken = recording(200, JSON.stringify({ data: [], nextCursor: null }));
    await createApiClient({ ...withToken.options, token: 'ck_x' }).listSites();
    expect(headerOf(withToken.sent[0], 'Authorization')).toBe('Bearer ck_x');
  });

  it('reads a 204 (sign-out) as done, though it has no body and no JSON type', async () => {
    const { sent, options } = recording(204, null);
    expect(await createStaffClient(options).signOut()).toMatchObject({ kind: 'ok', status: 204, value: null });
    expect(sent[0]).toMatchObject({ url: 'https://gate.example/v1/session', init: { method: 'DELETE' } });
  });

  it('sends the alert acknowledgement with its key', async () => {
    const alert = {
      kind: 'person',
      checkinId: 3,
      siteId: 1,
      at: '2026-11-26T10:00:00.000Z',
      subject: 'Mallory Banned',
      reason: 'Trespass',
      source: 'watchlist',
      acknowledgedAt: '2026-11-26T10:01:00.000Z',
      acknowledgedBy: { type: 'user', id: 2, name: 'Rita' },
    };
    const { sent, options } = recording(200, JSON.stringify(alert));
    expect(await createStaffClient(options).acknowledgeAlert('person', 3, 'key-2')).toMatchObject({
      kind: 'ok',
      value: alert,
    });
    expect(sent[0]?.url).toBe('https://gate.example/v1/alerts/person/3/acknowledge');
    expect(headerOf(sent[0], 'Idempotency-Key')).toBe('key-2');
  });
});

const user = (role: string): StaffUserAnswer => ({
  userId: 1,
  email: 'a@example.com',
  name: 'A',
  role,
  siteIds: [1],
  allSites: false,
  disabled: false,
  createdAt: '',
  lastSignInAt: null,
});

describe('what the console shows a role', () => {
  it('lets reception decide on people but not vehicles, security not check in by hand, an unknown role nothing', () => {
    const granted = (role: string) =>
      Object.entries(permissionsOf(user(role)))
        .filter(([, yes]) => yes)
        .map(([what]) => what)
        .sort();
    // Reception looks up past visits (History) but does not export them.
    expect(granted('reception')).toEqual([
      'alerts',
      'approvePeople',
      'checkInOut',
      'expected',
      'history',
      'invite',
      'onSite',
      'vehicles',
    ]);
    expect(granted('security')).toEqual([
      'alerts',
      'approvePeople',
      'approveVehicles',
      'manageVehicles',
      'onSite',
      'vehicles',
      'watchlist',
    ]);
    expect(granted('manager')).toEqual([
      'alerts',
      'approvePeople',
      'approveVehicles',
      'audit',
      'checkInOut',
      'expected',
      'exportHistory',
      'history',
      'hosts',
      'invite',
      'kiosks',
      'manageVehicles',
      'onSite',
      'sites',
      'vehicles',
      'watchlist',
    ]);
    expect(Object.values(permissionsOf(user('owner'))).every(Boolean)).toBe(true);
    expect(Object.values(permissionsOf(user('auditor-from-the-future'))).some(Boolean)).toBe(false);
  });

  it('lists people and vehicles of the chosen site, longest on site first', () => {
    const at = (minute: number) => `2026-11-26T10:${String(minute).padStart(2, '0')}:00.000Z`;
    const personAt = (checkinId: number, siteId: number, minute: number) => ({
      checkinId,
      siteId,
      status: 'IN',
      person: { firstName: 'P', lastName: String(checkinId), email: null, phone: null, company: null },
      hostName: null,
      hostId: null,
      purpose: null,
      customFields: {},
      labelIds: [],
      entry: { source: 'API', at: at(minute) },
      exit: null,
      denyReason: null,
      invitationId: null,
      pendingReason: null,
      badgeCode: null,
      language: null,
      breaks: [],
      decidedBy: null,
      decidedAt: null,
      createdAt: at(minute),
      updatedAt: at(minute),
    });
    const vehicle = {
      checkinId: 7,
      siteId: 1,
      vehicleId: null,
      licensePlate: 'AB 1',
      status: 'PENDING',
      driverName: 'Dee',
      notes: null,
      entry: { source: 'KIOSK', at: at(5) },
      exit: null,
      denyReason: null,
      stopReason: null,
      decidedBy: null,
      decidedAt: null,
      createdAt: at(5),
      updatedAt: at(5),
    };
    const rows = onSiteRows([personAt(1, 1, 9), personAt(2, 2, 1), personAt(3, 1, 2)], [vehicle], 1);
    expect(rows.map((row) => row.key)).toEqual(['p3', 'v7', 'p1']);
    expect(rows[1]).toMatchObject({ kind: 'vehicle', name: 'AB 1', company: 'Dee', status: 'PENDING' });
    expect(onSiteRows([personAt(1, 1, 9), personAt(2, 2, 1)], [], null).map((row) => row.key)).toEqual(['p2', 'p1']);
  });
});
