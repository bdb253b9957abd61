import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { PeopleChanges } from '../../shared/src/schemas/peopleChanges';
import type { PersonCheckin } from '../../shared/src/schemas/personCheckins';
import { defaultCheckinConfig } from '../../shared/src/schemas/sites';
import { putCheckinConfig } from '../support/checkinConfig';
import { type OpenStream, type ReceivedEvent, checkinEvent, openEventStream } from '../support/eventStream';
import { buildToken, visitor } from '../support/factories';
import { invite } from '../support/invitations';
import { alertEvent, checkInOnOlderForm, holdPass, refuseAtKiosk } from '../support/raisedAlerts';
import { type ApiClient, apiClient } from '../support/http';
import { serverAndWorld } from '../support/serverAndWorld';
import { staffClient } from '../support/staff';
import { TEST_ADMIN_TOKEN } from '../support/testServer';
import { arrive, registerVehicle, uniquePlate } from '../support/vehicles';

// Tenant isolation of the event stream and the people feed: another account's, another site's and another
// scope's changes never reach a stream, and the feed of a site the caller cannot view is a 404. Access is
// checked again every second here (EVENTS_RECHECK_SECONDS), so a revoked stream ends within the test.
const harness = serverAndWorld({
  stranger: true,
  env: { EVENTS_RECHECK_SECONDS: '1', SIGNIN_FAILURES_PER_ADDRESS: '1000' },
});
const people = (siteId: number) => `/v1/sites/${siteId}/checkins/people`;

const open: OpenStream[] = [];
async function stream(options: Parameters<typeof openEventStream>[1]): Promise<OpenStream> {
  const opened = await openEventStream(harness.server.baseUrl, options);
  expect(opened.status).toBe(200);
  await opened.waitFor((event) => event.event === 'reset');
  open.push(opened);
  return opened;
}
afterEach(() => {
  for (const opened of open.splice(0)) opened.close();
});

let kioskToken: { token: string; tokenId: number };
beforeAll(async () => {
  const { server, world } = harness;
  kioskToken = await buildToken(server, {
    accountId: world.accountId,
    siteIds: [world.siteId],
    channel: 'KIOSK',
    mode: 'visitor',
  });
});

const changes = (event: ReceivedEvent) => event.event !== 'reset' && event.event !== 'ready';

describe('the event stream carries only what its caller may see', () => {
  it("another account's and another site's changes never arrive; a marker after them does", async () => {
    const { server, world, stranger } = harness;
    const reception = await staffClient(server, {
      accountId: world.accountId,
      role: 'reception',
      siteIds: [world.siteId],
    });
    const peopleOnly = await buildToken(server, {
      accountId: world.accountId,
      siteIds: [world.siteId],
      scopes: ['checkins:read'],
    });
    const streams = {
      kiosk: await stream({ token: kioskToken.token }),
      reception: await stream({ cookie: reception.api.cookie }),
      peopleOnly: await stream({ token: peopleOnly.token }),
      strangerAll: await stream({ token: stranger.token }),
    };

    // The other account: a visit, a vehicle, a form, a registered vehicle, an invitation, a host.
    expect((await stranger.api.post(people(stranger.siteId), visitor())).status).toBe(201);
    await arrive(stranger.api, stranger.siteId, { licensePlate: uniquePlate('THEIRS') });
    await putCheckinConfig({ api: stranger.api, siteId: stranger.siteId }, defaultCheckinConfig.fields, true);
    await registerVehicle(stranger.api, { licensePlate: uniquePlate('THEIRS') });
    await invite(stranger.api, stranger.siteId);
    expect((await stranger.api.post('/v1/hosts', { name: 'Their Host', siteIds: [stranger.siteId] })).status).toBe(201);
    // This account's other site: an invitation, a host, a visit, a STOP (an alert), a vehicle, a form.
    await invite(world.api, world.otherSiteId);
    expect((await world.api.post('/v1/hosts', { name: 'Other Host', siteIds: [world.otherSiteId] })).status).toBe(201);
    expect((await world.api.post(people(world.otherSiteId), visitor())).status).toBe(201);
    await world.api.post('/v1/watchlist/people', { email: 'iso-live@example.com' });
    const stopped = await world.api.post<PersonCheckin>(
      people(world.otherSiteId),
      visitor('Iso', 'Live', { person: { firstName: 'Iso', lastName: 'Live', email: 'iso-live@example.com' } }),
    );
    expect(stopped.body.status).toBe('STOP');
    await arrive(world.api, world.otherSiteId, { licensePlate: uniquePlate('OTHER') });
    await putCheckinConfig({ api: world.api, siteId: world.otherSiteId }, defaultCheckinConfig.fields, true);
    // A vehicle at this site: only for those with vehicle scopes.
    const car = await arrive(world.api, world.siteId, { licensePlate: uniquePlate('HERE') });
    // Then the marker on this site: events come in order, so anything foreign would have come before it.
    const marker = (await world.api.post<PersonCheckin>(people(world.siteId), visitor())).body;
    for (const name of ['kiosk', 'reception', 'peopleOnly'] as const) {
      const received = streams[name];
      await received.waitFor(checkinEvent(marker.checkinId, 'IN'));
      const seen = received.events.filter(changes);
      for (const event of seen) expect(event.data.siteId, `${name}: ${JSON.stringify(event)}`).toBe(world.siteId);
      expect(
        seen.some((event) => event.event === 'alert' || event.event === 'vehicles'),
        name,
      ).toBe(false);
      const sawCar = seen.some(checkinEvent(car.checkinId));
      // A visitor kiosk follows its site's people, not its vehicles (§27).
      expect(sawCar, name).toBe(name === 'reception');
    }
    // The stranger's all-sites stream: its own changes, none of this account's.
    const theirMarker = (await stranger.api.post<PersonCheckin>(people(stranger.siteId), visitor())).body;
    await streams.strangerAll.waitFor(checkinEvent(theirMarker.checkinId));
    for (const event of streams.strangerAll.events.filter(changes)) {
      expect([stranger.siteId, stranger.otherSiteId, null]).toContain(event.data.siteId);
    }
    expect(streams.strangerAll.events.some(checkinEvent(marker.checkinId))).toBe(false);
  });

  it('an alert of any kind reaches only those who read its site’s alerts, of its account', async () => {
    const { server, world, stranger } = harness;
    const readers = {
      here: await staffClient(server, { accountId: world.accountId, role: 'reception', siteIds: [world.siteId] }),
      there: await staffClient(server, { accountId: world.accountId, role: 'reception', siteIds: [world.otherSiteId] }),
      theirs: await staffClient(server, { accountId: stranger.accountId, role: 'security' }),
    };
    const streams = {
      here: await stream({ cookie: readers.here.api.cookie }),
      there: await stream({ cookie: readers.there.api.cookie }),
      theirs: await stream({ cookie: readers.theirs.api.cookie }),
      kiosk: await stream({ token: kioskToken.token }),
    };
    const kioskOf = async (accountId: number, siteId: number) =>
      apiClient(
        server.baseUrl,
        (await buildToken(server, { accountId, siteIds: [siteId], channel: 'KIOSK', mode: 'visitor' })).token,
      );
    // Each kind at the other site, and in the other account: a pass held, an older form, a kiosk refusal.
    const raise = async (site: { api: ApiClient; accountId: number; siteId: number }, reader: ApiClient) => [
      await holdPass(site.api, site.siteId),
      await checkInOnOlderForm(site.api, site.siteId),
      await refuseAtKiosk(await kioskOf(site.accountId, site.siteId), site.siteId, reader, `iso-${site.siteId}`),
    ];
    const there = await raise({ ...world, siteId: world.otherSiteId }, readers.there.api);
    const theirs = await raise(stranger, readers.theirs.api);
    for (const alert of there) await streams.there.waitFor(alertEvent(alert));
    for (const alert of theirs) await streams.theirs.waitFor(alertEvent(alert));
    const marker = (await world.api.post<PersonCheckin>(people(world.siteId), visitor())).body;
    for (const name of ['here', 'kiosk'] as const) {
      await streams[name].waitFor(checkinEvent(marker.checkinId, 'IN'));
      expect(
        streams[name].events.filter((event) => event.event === 'alert'),
        name,
      ).toEqual([]);
    }
    const alertsOf = (name: 'there' | 'theirs') =>
      streams[name].events.filter((event) => event.event === 'alert').map((event) => event.data.siteId);
    expect(alertsOf('there')).toEqual([world.otherSiteId, world.otherSiteId, world.otherSiteId]);
    expect(alertsOf('theirs')).toEqual([stranger.siteId, stranger.siteId, stranger.siteId]);
  });

  it('a revoked token’s stream ends; a site taken from a token stops coming', async () => {
    const { server, world } = harness;
    const admin = apiClient(server.baseUrl, TEST_ADMIN_TOKEN);
    const doomed = await buildToken(server, { accountId: world.accountId, siteIds: [world.siteId] });
    const revoked = await stream({ token: doomed.token });
    expect((await admin.delete(`/v1/admin/tokens/${doomed.tokenId}`)).status).toBe(204);
    await revoked.ended;

    const narrowed = await buildToken(server, {
      accountId: world.accountId,
      siteIds: [world.siteId, world.otherSiteId],
    });
    const events = await stream({ token: narrowed.token });
    const before = (await world.api.post<PersonCheckin>(people(world.otherSiteId), visitor())).body;
    await events.waitFor(checkinEvent(before.checkinId));
    const patched = await admin.patch(`/v1/admin/tokens/${narrowed.tokenId}`, { siteIds: [world.siteId] });
    expect(patched.status).toBe(200);
    // Past the next check (every second here), the other site's visits no longer come; this site's still do.
    await new Promise((resolve) => setTimeout(resolve, 2_500));
    const after = (await world.api.post<PersonCheckin>(people(world.otherSiteId), visitor())).body;
    const marker = (await world.api.post<PersonCheckin>(people(world.siteId), visitor())).body;
    await events.waitFor(checkinEvent(marker.checkinId, 'IN'));
    expect(events.events.some(checkinEvent(after.checkinId))).toBe(false);
  });

  it('a signed-out session’s stream ends', async () => {
    const { server, world } = harness;
    const manager = await staffClient(server, { accountId: world.accountId, role: 'manager', siteIds: [world.siteId] });
    const events = await stream({ cookie: manager.api.cookie });
    expect((await manager.api.delete('/v1/session')).status).toBe(204);
    await events.ended;
  });
});

describe('the people feed is each site’s own', () => {
  it('404 for a site of another account, or one the token cannot view; 400 for another site’s cursor', async () => {
    const { server, world, stranger } = harness;
    const kiosk = apiClient(server.baseUrl, kioskToken.token);
    for (const [api, siteId] of [
      [stranger.api, world.siteId],
      [kiosk, world.otherSiteId],
      [world.api, stranger.siteId],
    ] as const) {
      const response = await api.get(`${people(siteId)}/changes`);
      expect(response.status, `${siteId}`).toBe(404);
    }
    const other = await world.api.get<PeopleChanges>(`${people(world.otherSiteId)}/changes`);
    const refused = await world.api.get(`${people(world.siteId)}/changes?cursor=${other.body.nextCursor}`);
    expect(refused.status).toBe(400);
    const theirs = await stranger.api.get<PeopleChanges>(`${people(stranger.siteId)}/changes`);
    expect((await world.api.get(`${people(world.siteId)}/changes?cursor=${theirs.body.nextCursor}`)).status).toBe(400);
  });
});
