import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { PersonCheckin } from '../../shared/src/schemas/personCheckins';
import { type OpenStream, type ReceivedEvent, checkinEvent, openEventStream } from '../support/eventStream';
import { buildToken } from '../support/factories';
import { type ApiClient, apiClient } from '../support/http';
import { pairedKiosk } from '../support/kiosks';
import { alertEvent, checkInOnOlderForm, holdPass, refuseAtKiosk } from '../support/raisedAlerts';
import { serverAndWorld } from '../support/serverAndWorld';
import { staffClient } from '../support/staff';

// Issue #38: every alert reaches the console live. A pass held, a check-in on an older form and a kiosk
// refusal each publish an `alert` event (docs/api.md, Event stream) to whoever may read the site's alerts,
// and to nobody else: not another site's reception, not another account, not the kiosk, not an integrator
// without `alerts:manage`.

const harness = serverAndWorld({ stranger: true, env: { SIGNIN_FAILURES_PER_ADDRESS: '1000' } });
const people = (siteId: number) => `/v1/sites/${siteId}/checkins/people`;

const open: OpenStream[] = [];
async function stream(options: Parameters<typeof openEventStream>[1]): Promise<OpenStream> {
  const opened = await openEventStream(harness.server.baseUrl, options);
  expect(opened.status).toBe(200);
  open.push(opened);
  await opened.waitFor((event) => event.event === 'reset');
  return opened;
}
afterEach(() => {
  for (const opened of open.splice(0)) opened.close();
});

const alerts = (events: OpenStream) => events.events.filter((event) => event.event === 'alert');

let kiosk: ApiClient;
let kioskToken: string;
beforeAll(async () => {
  const { server, world } = harness;
  const paired = await pairedKiosk(server, { accountId: world.accountId, siteId: world.siteId, name: 'Lobby kiosk' });
  kioskToken = paired.token;
  kiosk = apiClient(server.baseUrl, paired.token);
});

/** A visit at the site, once each stream has its `checkin` event: anything published before it has come too. */
async function marker(api: ApiClient, siteId: number, ...streams: OpenStream[]): Promise<void> {
  const created = await api.post<PersonCheckin>(people(siteId), {
    person: { firstName: 'Marker', lastName: 'Visit' },
  });
  expect(created.status, created.text).toBe(201);
  for (const events of streams) await events.waitFor(checkinEvent(created.body.checkinId));
}

describe('GET /v1/events: alerts that are not a STOP', () => {
  it('a held pass, an older form and a kiosk refusal: each an alert event for the site’s reception, ids only', async () => {
    const { server, world } = harness;
    const reception = await staffClient(server, {
      accountId: world.accountId,
      role: 'reception',
      siteIds: [world.siteId],
    });
    const events = await stream({ cookie: reception.api.cookie });

    const held = await holdPass(world.api, world.siteId);
    await events.waitFor(alertEvent(held));
    const older = await checkInOnOlderForm(world.api, world.siteId);
    await events.waitFor(alertEvent(older));
    const refused = await refuseAtKiosk(kiosk, world.siteId, reception.api, 'refused-live-1');
    await events.waitFor(alertEvent(refused));
    // The kiosk retries the refused request: its alert is raised once, and published once.
    const retry = await kiosk.post(
      `${people(world.siteId)}/999999999/checkout`,
      {},
      { idempotencyKey: 'refused-live-1' },
    );
    expect(retry.status).toBe(404);
    await marker(world.api, world.siteId, events);

    expect(alerts(events).map((event) => event.data)).toEqual(
      [held, older, refused].map((alert) => ({ ...alert, siteId: world.siteId })),
    );
    // Each names an alert the list holds, unacknowledged: what the console re-reads on it.
    const listed = await reception.api.get<{
      data: Array<{ kind: string; checkinId: number }>;
      unacknowledged: number;
    }>('/v1/alerts');
    for (const alert of [held, older, refused]) expect(listed.body.data).toContainEqual(expect.objectContaining(alert));
    expect(listed.body.unacknowledged).toBe(3);
    // Ids and states only: no name, no kiosk, no reason.
    expect(events.text()).not.toMatch(/Olga|Olderform|Lovelace|Lobby kiosk|refused|Company|already used/i);
  });

  it('reach no other site’s reception, no other account, no kiosk and no integrator without alerts:manage', async () => {
    const { server, world, stranger } = harness;
    const here = await staffClient(server, { accountId: world.accountId, role: 'reception', siteIds: [world.siteId] });
    const there = await staffClient(server, {
      accountId: world.accountId,
      role: 'security',
      siteIds: [world.otherSiteId],
    });
    const theirs = await staffClient(server, { accountId: stranger.accountId, role: 'manager' });
    const integrator = await buildToken(server, {
      accountId: world.accountId,
      siteIds: [world.siteId],
      scopes: ['checkins:read', 'checkins:write'],
    });
    const streams = {
      here: await stream({ cookie: here.api.cookie }),
      there: await stream({ cookie: there.api.cookie }),
      theirs: await stream({ cookie: theirs.api.cookie }),
      kiosk: await stream({ token: kioskToken }),
      integrator: await stream({ token: integrator.token }),
    };

    const raised = [
      await holdPass(world.api, world.siteId),
      await checkInOnOlderForm(world.api, world.siteId),
      await refuseAtKiosk(kiosk, world.siteId, here.api, 'refused-live-2'),
    ];
    for (const alert of raised) await streams.here.waitFor(alertEvent(alert));
    // Markers after them on each stream's own site (and account): anything foreign would have come before.
    await marker(world.api, world.siteId, streams.kiosk, streams.integrator);
    await marker(world.api, world.otherSiteId, streams.there);
    await marker(stranger.api, stranger.siteId, streams.theirs);
    for (const name of ['there', 'theirs', 'kiosk', 'integrator'] as const) {
      expect(alerts(streams[name]), name).toEqual([]);
    }
    // The other site's own alert reaches its security, and not this site's reception.
    const otherHeld = await holdPass(world.api, world.otherSiteId);
    const seen: ReceivedEvent = await streams.there.waitFor(alertEvent(otherHeld));
    expect(seen.data.siteId).toBe(world.otherSiteId);
    await marker(world.api, world.siteId, streams.here);
    expect(streams.here.events.some(alertEvent(otherHeld))).toBe(false);
  });
});
