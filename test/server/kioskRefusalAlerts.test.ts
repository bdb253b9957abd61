import { beforeAll, describe, expect, it } from 'vitest';
import type { Alert } from '../../shared/src/schemas/alerts';
import type { PersonCheckin } from '../../shared/src/schemas/personCheckins';
import { defaultCheckinConfig } from '../../shared/src/schemas/sites';
import { buildToken, visitor } from '../support/factories';
import { type ApiClient, apiClient } from '../support/http';
import { pairedKiosk } from '../support/kiosks';
import { serverAndWorld } from '../support/serverAndWorld';
import { staffClient } from '../support/staff';

// An action the server refuses to a kiosk raises an alert naming the site, the kiosk and the reason
// (docs/api.md, Alerts): once per request, never for a replay or a 409, never for an integrator.
const harness = serverAndWorld({ env: { SIGNIN_FAILURES_PER_ADDRESS: '1000' }, stranger: true });

const people = (siteId: number) => `/v1/sites/${siteId}/checkins/people`;
const vehicles = (siteId: number) => `/v1/sites/${siteId}/checkins/vehicles`;
let kiosk: ApiClient;
let reception: ApiClient;

/** The kiosk alerts reception of site 1 sees, oldest first. */
async function kioskAlerts(api: ApiClient = reception): Promise<Alert[]> {
  const listed = await api.get<{ data: Alert[] }>('/v1/alerts?limit=200');
  expect(listed.status).toBe(200);
  return listed.body.data.filter((alert) => alert.kind === 'kiosk').reverse();
}

/** Runs `act` and returns the kiosk alerts it added. */
async function alertsAdded(act: () => Promise<unknown>): Promise<Alert[]> {
  const before = (await kioskAlerts()).length;
  await act();
  return (await kioskAlerts()).slice(before);
}

beforeAll(async () => {
  const { world, server } = harness;
  const paired = await pairedKiosk(server, { accountId: world.accountId, siteId: world.siteId, name: 'Lobby kiosk' });
  kiosk = apiClient(server.baseUrl, paired.token);
  reception = (await staffClient(server, { accountId: world.accountId, role: 'reception', siteIds: [world.siteId] }))
    .api;
  const put = await world.api.put(`${people(world.siteId)}/config`, {
    requiresApproval: false,
    fields: [
      ...defaultCheckinConfig.fields.slice(0, 2),
      { name: 'company', label: 'Company', type: 'text', required: true },
    ],
  });
  expect(put.status).toBe(200);
});

describe('a check-in action refused to a kiosk', () => {
  it('raises an alert naming the site, the kiosk and why; its replay raises none', async () => {
    const { siteId } = harness.world;
    let refused = 0;
    const added = await alertsAdded(async () => {
      refused = (await kiosk.post(people(siteId), visitor('Ned', 'Nocompany'), { idempotencyKey: 'refused-create-1' }))
        .status;
    });
    expect(refused).toBe(422);
    expect(added).toEqual([
      expect.objectContaining({
        kind: 'kiosk',
        siteId,
        subject: 'Lobby kiosk',
        source: 'kioskRefused',
        reason: 'Check-in refused: The check-in does not meet the site configuration. (Company is required)',
        acknowledgedAt: null,
      }),
    ]);
    // The kiosk retries (Needs attention → Retry): the stored refusal is replayed, and no alert is added.
    const again = await alertsAdded(async () => {
      const replay = await kiosk.post(people(siteId), visitor('Ned', 'Nocompany'), {
        idempotencyKey: 'refused-create-1',
      });
      expect(replay.status).toBe(422);
      expect(replay.headers.get('idempotent-replayed')).toBe('true');
    });
    expect(again).toEqual([]);
    // Reception acknowledges it by its kind and number.
    const alert = added[0];
    const ack = await reception.post<Alert>(`/v1/alerts/kiosk/${alert?.checkinId}/acknowledge`);
    expect(ack.status).toBe(200);
    expect(ack.body).toMatchObject({ kind: 'kiosk', checkinId: alert?.checkinId, acknowledgedBy: { type: 'user' } });
  });

  it('a refusal that is not stored (403, 404) and is sent again with its key still raises one alert', async () => {
    const { world, server } = harness;
    const limited = await buildToken(server, {
      accountId: world.accountId,
      siteIds: [world.siteId],
      channel: 'KIOSK',
      mode: 'visitor',
      name: 'Side door tablet',
    });
    const side = apiClient(server.baseUrl, limited.token);
    const waiting = await world.api.post<PersonCheckin>(
      people(world.siteId),
      visitor('Pat', 'Pending', { person: { firstName: 'Pat', lastName: 'Pending', company: 'ACME' } }),
    );
    const approve = `${people(world.siteId)}/${waiting.body.checkinId}/approve`;
    const added = await alertsAdded(async () => {
      for (let attempt = 0; attempt < 3; attempt++) {
        expect((await side.post(approve, {}, { idempotencyKey: 'approve-without-scope' })).status).toBe(403);
      }
      expect((await kiosk.post(`${people(world.siteId)}/987654/checkout`, {})).status).toBe(404);
    });
    expect(added.map((alert) => [alert.subject, alert.reason])).toEqual([
      ['Side door tablet', 'Approval refused: This token lacks the checkins:approve scope.'],
      ['Lobby kiosk', 'Check-out refused: Check-in 987654 does not exist on site ' + world.siteId + '.'],
    ]);
  });

  it('covers breaks, vehicle entries and offline times too; a 409 state conflict raises none', async () => {
    const { world, server } = harness;
    const { siteId } = world;
    const pairedGate = await pairedKiosk(server, { accountId: world.accountId, siteId, mode: 'gate', name: 'Gate' });
    const gate = apiClient(server.baseUrl, pairedGate.token);
    const visit = await kiosk.post<PersonCheckin>(
      people(siteId),
      visitor('Ivy', 'Inside', { person: { firstName: 'Ivy', lastName: 'Inside', company: 'ACME' } }),
    );
    expect(visit.status).toBe(201);
    const added = await alertsAdded(async () => {
      // A 409: the visit's own state, which the kiosk shows; no alert.
      expect((await kiosk.post(`${people(siteId)}/${visit.body.checkinId}/breaks/end`, {})).status).toBe(409);
      const eightDaysAgo = new Date(Date.now() - 8 * 24 * 3_600_000).toISOString();
      expect(
        (await kiosk.post(`${people(siteId)}/${visit.body.checkinId}/breaks/start`, { occurredAt: eightDaysAgo }))
          .status,
      ).toBe(422);
      expect((await gate.post(vehicles(siteId), { licensePlate: '***' })).status).toBe(422);
    });
    expect(added.map((alert) => alert.reason)).toEqual([
      expect.stringMatching(/^Break start refused: /),
      expect.stringMatching(/^Vehicle entry refused: /),
    ]);
  });

  it('an integrator’s or a staff user’s refusal is theirs to handle: no alert', async () => {
    const { siteId } = harness.world;
    const added = await alertsAdded(async () => {
      expect((await harness.world.api.post(people(siteId), visitor('Api', 'Caller'))).status).toBe(422);
      expect((await reception.post(people(siteId), visitor('Desk', 'Caller'))).status).toBe(422);
    });
    expect(added).toEqual([]);
  });

  it('a request for a site the kiosk may not view is 404 and an alert on the kiosk’s own site', async () => {
    const { world } = harness;
    const added = await alertsAdded(async () => {
      expect((await kiosk.post(people(world.otherSiteId), visitor('Wrong', 'Site'))).status).toBe(404);
    });
    expect(added.map((alert) => [alert.siteId, alert.subject])).toEqual([[world.siteId, 'Lobby kiosk']]);
    expect(added[0]?.reason).toBe(
      `Check-in refused: Site ${world.otherSiteId} does not exist or is not visible to this token.`,
    );
  });

  it('is seen only on its site: not by reception of another site, nor by another account', async () => {
    const { world, stranger, server } = harness;
    const [alert] = await kioskAlerts();
    expect(alert).toBeDefined();
    const otherSite = (
      await staffClient(server, { accountId: world.accountId, role: 'reception', siteIds: [world.otherSiteId] })
    ).api;
    const outsider = (await staffClient(server, { accountId: stranger.accountId, role: 'owner' })).api;
    for (const api of [otherSite, outsider]) {
      expect(await kioskAlerts(api)).toEqual([]);
      expect((await api.post(`/v1/alerts/kiosk/${alert?.checkinId}/acknowledge`)).status).toBe(404);
    }
  });
});
