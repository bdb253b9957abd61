import { afterEach, describe, expect, it } from 'vitest';
import type { PersonCheckin } from '../../shared/src/schemas/personCheckins';
import type { VehicleChanges } from '../../shared/src/schemas/vehicles';
import { inTransaction } from '../../server/src/db/query';
import { pruneLiveEvents } from '../../server/src/jobs/liveEventPrune';
import { publishEvent } from '../../server/src/live/publish';
import { defaultCheckinConfig } from '../../shared/src/schemas/sites';
import { putCheckinConfig } from '../support/checkinConfig';
import { type OpenStream, type ReceivedEvent, checkinEvent, openEventStream } from '../support/eventStream';
import { buildWorld, visitor } from '../support/factories';
import { serverAndWorld } from '../support/serverAndWorld';
import { staffClient } from '../support/staff';
import { VEHICLES, arrive, registerVehicle, uniquePlate, visit } from '../support/vehicles';

// A comment every second, so the test of it does not wait 25.
const harness = serverAndWorld({ env: { EVENTS_KEEPALIVE_SECONDS: '1', SIGNIN_FAILURES_PER_ADDRESS: '1000' } });
const people = (siteId: number) => `/v1/sites/${siteId}/checkins/people`;

const open: OpenStream[] = [];
async function stream(options: Parameters<typeof openEventStream>[1]): Promise<OpenStream> {
  const opened = await openEventStream(harness.server.baseUrl, options);
  open.push(opened);
  return opened;
}
afterEach(() => {
  for (const opened of open.splice(0)) opened.close();
});

const named = (type: string) => (event: ReceivedEvent) => event.event === type;

describe('GET /v1/events: what it carries', () => {
  it('starts with retry and a reset carrying an id, as text/event-stream that nothing caches', async () => {
    const { world } = harness;
    const events = await stream({ token: world.token });
    expect(events.status).toBe(200);
    expect(events.headers.get('content-type')).toMatch(/^text\/event-stream/);
    expect(events.headers.get('cache-control')).toBe('no-store');
    const reset = await events.waitFor(named('reset'));
    expect(reset.data).toEqual({ reason: 'start' });
    expect(reset.lastEventId).toMatch(/^\d+-\d+$/);
    expect(events.reader.retryMs).toBeGreaterThanOrEqual(1_000);
    expect(events.events[0]).toBe(reset);
  });

  it('a person visit: each status it passes, with kind, site and id, and never a name', async () => {
    const { world } = harness;
    const events = await stream({ token: world.token });
    await events.waitFor(named('reset'));
    const created = await world.api.post<PersonCheckin>(
      people(world.siteId),
      visitor('Zebedee', 'Quintessence', {
        person: { firstName: 'Zebedee', lastName: 'Quintessence', email: 'zq@example.com' },
      }),
    );
    expect(created.status).toBe(201);
    const { checkinId } = created.body;
    const checkin = `${people(world.siteId)}/${checkinId}`;
    expect((await world.api.post(`${checkin}/breaks/start`, {})).status).toBe(200);
    expect((await world.api.post(`${checkin}/breaks/end`, {})).status).toBe(200);
    expect((await world.api.post(`${checkin}/checkout`, {})).status).toBe(200);
    await events.waitFor(checkinEvent(checkinId, 'OUT'));
    const mine = events.events.filter(checkinEvent(checkinId));
    expect(mine.map((event) => event.data)).toEqual(
      ['IN', 'ON_BREAK', 'IN', 'OUT'].map((status) => ({ kind: 'person', siteId: world.siteId, checkinId, status })),
    );
    // Each has an id of its own, in order.
    const ids = mine.map((event) => event.lastEventId);
    expect(new Set(ids).size).toBe(4);
    expect(events.text()).not.toMatch(/Zebedee|Quintessence|zq@example/);
  });

  it('an erasure of a visit on site says so (anonymized), its status unchanged', async () => {
    const { server, world } = harness;
    const events = await stream({ token: world.token });
    await events.waitFor(named('reset'));
    const created = await world.api.post<PersonCheckin>(
      people(world.siteId),
      visitor('Erased', 'Soon', {
        person: { firstName: 'Erased', lastName: 'Soon', email: 'erased-live@example.com' },
      }),
    );
    await events.waitFor(checkinEvent(created.body.checkinId, 'IN'));
    const owner = await staffClient(server, { accountId: world.accountId, role: 'owner' });
    expect((await owner.api.post('/v1/privacy/erasure', { email: 'erased-live@example.com' })).status).toBe(200);
    const erased = await events.waitFor(
      (event) => checkinEvent(created.body.checkinId)(event) && event.data.anonymized === true,
    );
    expect(erased.data).toEqual({
      kind: 'person',
      siteId: world.siteId,
      checkinId: created.body.checkinId,
      status: 'IN',
      anonymized: true,
    });
    expect(events.events.filter(checkinEvent(created.body.checkinId))[0]?.data).not.toHaveProperty('anonymized');
  });

  it('a vehicle visit, a STOP and its alert, its acknowledgement, a new form, and the vehicle feed', async () => {
    const { server, world } = harness;
    const owner = await staffClient(server, { accountId: world.accountId, role: 'owner' });
    const events = await stream({ cookie: owner.api.cookie });
    await events.waitFor(named('reset'));

    const entered = await arrive(world.api, world.siteId, { licensePlate: uniquePlate('LIVE') });
    await events.waitFor(checkinEvent(entered.checkinId, entered.status));
    expect((await world.api.patch(visit(entered), {})).status).toBe(200);
    const out = await events.waitFor(checkinEvent(entered.checkinId, 'OUT'));
    expect(out.data).toEqual({ kind: 'vehicle', siteId: world.siteId, checkinId: entered.checkinId, status: 'OUT' });

    await world.api.post('/v1/watchlist/people', { email: 'stopped@example.com', reason: 'Private' });
    const stopped = await world.api.post<PersonCheckin>(
      people(world.otherSiteId),
      visitor('Stop', 'Me', { person: { firstName: 'Stop', lastName: 'Me', email: 'stopped@example.com' } }),
    );
    expect(stopped.body.status).toBe('STOP');
    const alert = await events.waitFor(
      (event) => event.event === 'alert' && event.data.checkinId === stopped.body.checkinId,
    );
    expect(alert.data).toEqual({ kind: 'person', siteId: world.otherSiteId, checkinId: stopped.body.checkinId });
    const count = events.events.length;
    expect((await owner.api.post(`/v1/alerts/person/${stopped.body.checkinId}/acknowledge`, {})).status).toBe(200);
    await events.waitFor((event) => event.event === 'alert' && event.data.checkinId === stopped.body.checkinId, {
      from: count,
    });

    const site = { api: world.api, siteId: world.siteId };
    await putCheckinConfig(site, defaultCheckinConfig.fields, true);
    const config = await events.waitFor(named('config'));
    const again = events.events.length;
    await putCheckinConfig(site, defaultCheckinConfig.fields, false);
    const next = await events.waitFor(named('config'), { from: again });
    expect(Object.keys(config.data).sort()).toEqual(['siteId', 'version']);
    expect(config.data.siteId).toBe(world.siteId);
    expect(next.data).toEqual({ siteId: world.siteId, version: Number(config.data.version) + 1 });

    await registerVehicle(world.api, { licensePlate: uniquePlate('FEED') });
    const vehicles = await events.waitFor(named('vehicles'));
    const feed = await world.api.get<VehicleChanges>(`${VEHICLES}/changes?limit=5000`);
    expect(vehicles.data).toEqual({ siteId: null, cursor: feed.body.nextCursor });
  });

  it('a comment line comes every EVENTS_KEEPALIVE_SECONDS, and moves the id on past changes the caller cannot see', async () => {
    const { server, world } = harness;
    const events = await stream({ token: world.token });
    const reset = await events.waitFor(named('reset'));
    const stranger = await buildWorld(server);
    expect((await stranger.api.post(people(stranger.siteId), visitor())).status).toBe(201);
    const deadline = Date.now() + 5_000;
    while (events.reader.comments < 2 && Date.now() < deadline)
      await new Promise((resolve) => setTimeout(resolve, 100));
    expect(events.reader.comments).toBeGreaterThanOrEqual(2);
    expect(events.text()).toContain('\n: keep-alive\n');
    // No event of the stranger came, yet the id the client would resume from moved past it.
    expect(events.events).toEqual([reset]);
    expect(events.reader.lastEventId).not.toBe(reset.lastEventId);
  });
});

describe('GET /v1/events: resuming', () => {
  it('reconnecting with Last-Event-ID replays what happened meanwhile, in order, nothing lost or doubled', async () => {
    const { world } = harness;
    const first = await stream({ token: world.token });
    await first.waitFor(named('reset'));
    const a = (await world.api.post<PersonCheckin>(people(world.siteId), visitor())).body;
    const seen = await first.waitFor(checkinEvent(a.checkinId, 'IN'));
    first.close();
    await first.ended;

    const b = (await world.api.post<PersonCheckin>(people(world.siteId), visitor())).body;
    expect((await world.api.post(`${people(world.siteId)}/${a.checkinId}/checkout`, {})).status).toBe(200);
    const c = (await world.api.post<PersonCheckin>(people(world.otherSiteId), visitor())).body;

    const again = await stream({ token: world.token, lastEventId: seen.lastEventId });
    await again.waitFor(checkinEvent(c.checkinId, 'IN'));
    expect(again.events[0]).toMatchObject({ event: 'ready', data: { resumed: true } });
    expect(again.events.slice(1).map((event) => [event.data.checkinId, event.data.status])).toEqual([
      [b.checkinId, 'IN'],
      [a.checkinId, 'OUT'],
      [c.checkinId, 'IN'],
    ]);
    // And it goes on live from there.
    const d = (await world.api.post<PersonCheckin>(people(world.siteId), visitor())).body;
    await again.waitFor(checkinEvent(d.checkinId, 'IN'));
    expect(again.events.filter(checkinEvent(c.checkinId))).toHaveLength(1);
  });

  it('a reconnect after more than 1,000 changes of its sites gets a reset (behind): re-reading is cheaper', async () => {
    const { server, world } = harness;
    const first = await stream({ token: world.token });
    const reset = await first.waitFor(named('reset'));
    first.close();
    // 1,001 changes published as any command publishes them.
    await inTransaction(server.database, async (db) => {
      for (let index = 0; index < 1_001; index += 1)
        await publishEvent(db, {
          accountId: world.accountId,
          siteId: world.siteId,
          type: 'hosts',
          data: { siteId: world.siteId },
        });
    });
    const late = await stream({ token: world.token, lastEventId: reset.lastEventId });
    expect((await late.waitFor((event) => event.event === 'reset' || event.event === 'ready')).data).toEqual({
      reason: 'behind',
    });
  });

  it('the id can come as ?lastEventId= from a client that cannot set the header', async () => {
    // An account of its own: the 1,000 changes of the test before are not in its replay.
    const world = await buildWorld(harness.server);
    const first = await stream({ token: world.token });
    const reset = await first.waitFor(named('reset'));
    first.close();
    const a = (await world.api.post<PersonCheckin>(people(world.siteId), visitor())).body;
    const again = await stream({ token: world.token, query: `?lastEventId=${reset.lastEventId}` });
    await again.waitFor(checkinEvent(a.checkinId, 'IN'));
    expect(again.events[0], JSON.stringify(again.events[0])).toMatchObject({ event: 'ready' });
  });

  it('an id older than the window (pruned since), or one never sent, gets a reset: read afresh', async () => {
    const { server, world } = harness;
    const first = await stream({ token: world.token });
    await first.waitFor(named('reset'));
    const a = (await world.api.post<PersonCheckin>(people(world.siteId), visitor())).body;
    const seen = await first.waitFor(checkinEvent(a.checkinId));
    first.close();
    // A change after the id the client holds, and then everything up to now is past the window.
    expect((await world.api.post(people(world.siteId), visitor())).status).toBe(201);
    let pruned = 0;
    for (let batch = await pruneLiveEvents(server.database, new Date(Date.now() + 60_000)); batch > 0;) {
      pruned += batch;
      batch = await pruneLiveEvents(server.database, new Date(Date.now() + 60_000));
    }
    expect(pruned).toBeGreaterThan(0);
    const late = await stream({ token: world.token, lastEventId: seen.lastEventId });
    expect((await late.waitFor(named('reset'))).data).toEqual({ reason: 'expired' });
    expect(late.events[0]?.event).toBe('reset');

    for (const id of ['999999999999-1', 'nonsense']) {
      const odd = await stream({ token: world.token, lastEventId: id });
      const first = await odd.waitFor((event) => event.event === 'reset' || event.event === 'ready');
      expect(first.event).toBe('reset');
    }
  });
});
