import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { PersonCheckin } from '../../shared/src/schemas/personCheckins';
import type { WebhookEventKind } from '../../shared/src/schemas/webhooks';
import type { WebhookDispatcher } from '../../server/src/jobs/webhookDispatcher';
import { buildWorld, visitor } from '../support/factories';
import { serverAndWorld } from '../support/serverAndWorld';
import { arrive, registerVehicle, uniquePlate, visit } from '../support/vehicles';
import { type Receiver, startReceiver, verifyWebhook } from '../support/webhookReceiver';
import { startTestDispatcher, subscribe, waitForDeliveries } from '../support/webhooks';

const harness = serverAndWorld({ env: { WEBHOOK_ALLOW_PRIVATE_URLS: 'true' }, worldPerTest: true });
let dispatcher: WebhookDispatcher;
let receiver: Receiver;

beforeAll(() => {
  dispatcher = startTestDispatcher(harness.server);
});
afterAll(async () => dispatcher?.stop());
beforeEach(async () => {
  receiver = await startReceiver();
});
afterEach(async () => receiver.close());

const people = (siteId = harness.world.siteId) => `/v1/sites/${siteId}/checkins/people`;
const allPersonKinds: WebhookEventKind[] = [
  'PERSON_CHECKIN_ENTERED',
  'PERSON_CHECKIN_EXITED',
  'PERSON_CHECKIN_PENDING',
  'PERSON_CHECKIN_STOPPED',
  'PERSON_BREAK_STARTED',
  'PERSON_BREAK_ENDED',
];

async function checkIn(body: unknown = visitor(), siteId = harness.world.siteId): Promise<PersonCheckin> {
  const response = await harness.world.api.post<PersonCheckin>(people(siteId), body);
  expect(response.status, response.text).toBe(201);
  return response.body;
}

describe('signed deliveries, one per transition', () => {
  it('sends each person transition as its event, signed so that standardwebhooks verifies it', async () => {
    const subscription = await subscribe(harness.world.api, { url: receiver.url(), events: allPersonKinds });
    const created = await checkIn(visitor('Ada', 'Lovelace'));
    const item = `${people()}/${created.checkinId}`;
    await receiver.waitFor(1);
    expect((await harness.world.api.post(`${item}/breaks/start`)).status).toBe(200);
    await receiver.waitFor(2);
    expect((await harness.world.api.post(`${item}/breaks/end`)).status).toBe(200);
    await receiver.waitFor(3);
    const out = await harness.world.api.patch<PersonCheckin>(item, {});
    const received = await receiver.waitFor(4);

    expect(received.map((request) => request.payload.type)).toEqual([
      'PERSON_CHECKIN_ENTERED',
      'PERSON_BREAK_STARTED',
      'PERSON_BREAK_ENDED',
      'PERSON_CHECKIN_EXITED',
    ]);
    for (const request of received) {
      const payload = verifyWebhook(subscription.secret, request);
      expect(request.id).toBe(payload.id);
      expect(payload.id).toMatch(/^evt_/);
      expect(request.headers['webhook-signature']).toMatch(/^v1,[A-Za-z0-9+/]+=*$/);
      expect(Math.abs(Number(request.headers['webhook-timestamp']) - Date.now() / 1000)).toBeLessThan(30);
      expect(request.headers['content-type']).toBe('application/json');
      expect(payload).toMatchObject({
        accountId: harness.world.accountId,
        siteId: harness.world.siteId,
        data: { checkin: { checkinId: created.checkinId } },
      });
      expect(Object.keys(JSON.parse(request.body) as object)).toEqual([
        'id',
        'type',
        'createdAt',
        'accountId',
        'siteId',
        'data',
      ]);
    }
    expect(received[3]?.payload.data.checkin).toEqual(out.body);
    expect(() => verifyWebhook(`whsec_${Buffer.alloc(32, 1).toString('base64')}`, received[0]!)).toThrow();

    const log = await waitForDeliveries(harness.world.api, subscription.subscriptionId, (items) =>
      items.every((entry) => entry.status === 'delivered'),
    );
    expect(log.map((entry) => entry.eventType)).toEqual([...received.map((request) => request.payload.type)].reverse());
    expect(log[0]).toMatchObject({
      status: 'delivered',
      nextAttemptAt: null,
      attempts: [{ statusCode: 200, error: null }],
    });
  });

  it('sends PENDING, approve → ENTERED, deny → STOPPED, and a watchlisted create → STOPPED', async () => {
    await subscribe(harness.world.api, { url: receiver.url(), events: allPersonKinds });
    const config = await harness.world.api.get<{ fields: unknown[] }>(`${people()}/config`);
    expect(
      (await harness.world.api.put(`${people()}/config`, { requiresApproval: true, fields: config.body.fields }))
        .status,
    ).toBe(200);
    const approved = await checkIn(visitor('Grace', 'Hopper'));
    const denied = await checkIn(visitor('Alan', 'Turing'));
    expect([approved.status, denied.status]).toEqual(['PENDING', 'PENDING']);
    await receiver.waitFor(2);
    expect((await harness.world.api.post(`${people()}/${approved.checkinId}/approve`)).status).toBe(200);
    expect((await harness.world.api.post(`${people()}/${denied.checkinId}/deny`, { reason: 'No escort' })).status).toBe(
      200,
    );
    expect((await harness.world.api.post('/v1/watchlist/people', { email: 'mallory@example.com' })).status).toBe(201);
    const stopped = await checkIn(
      { person: { firstName: 'Mal', lastName: 'Lory', email: 'mallory@example.com' } },
      harness.world.otherSiteId,
    );
    expect(stopped.status).toBe('STOP');

    const received = await receiver.waitFor(5);
    const byCheckin = (checkinId: number) =>
      received
        .filter((request) => request.payload.data.checkin.checkinId === checkinId)
        .map((request) => request.payload.type);
    expect(byCheckin(approved.checkinId)).toEqual(['PERSON_CHECKIN_PENDING', 'PERSON_CHECKIN_ENTERED']);
    expect(byCheckin(denied.checkinId)).toEqual(['PERSON_CHECKIN_PENDING', 'PERSON_CHECKIN_STOPPED']);
    expect(byCheckin(stopped.checkinId)).toEqual(['PERSON_CHECKIN_STOPPED']);
    expect(
      received.find((request) => request.payload.data.checkin.checkinId === stopped.checkinId)?.payload.siteId,
    ).toBe(harness.world.otherSiteId);
  });

  it('sends the four vehicle kinds: registered → ENTERED, checkout → EXITED, unknown plate → PENDING, deny → STOPPED', async () => {
    const vehicleKinds: WebhookEventKind[] = [
      'VEHICLE_CHECKIN_ENTERED',
      'VEHICLE_CHECKIN_EXITED',
      'VEHICLE_CHECKIN_PENDING',
      'VEHICLE_CHECKIN_STOPPED',
    ];
    const subscription = await subscribe(harness.world.api, { url: receiver.url(), events: vehicleKinds });
    const vehicle = await registerVehicle(harness.world.api, { licensePlate: uniquePlate() });
    const known = await arrive(harness.world.api, harness.world.siteId, { vehicleId: vehicle.vehicleId });
    await receiver.waitFor(1);
    expect((await harness.world.api.patch(visit(known), {})).status).toBe(200);
    const approved = await arrive(harness.world.api, harness.world.siteId, { licensePlate: uniquePlate('NEW') });
    const denied = await arrive(harness.world.api, harness.world.siteId, { licensePlate: uniquePlate('ODD') });
    await receiver.waitFor(4);
    expect((await harness.world.api.post(`${visit(approved)}/approve`)).status).toBe(200);
    expect((await harness.world.api.post(`${visit(denied)}/deny`)).status).toBe(200);
    const received = await receiver.waitFor(6);
    const byCheckin = (checkinId: number) =>
      received
        .filter((request) => request.payload.data.checkin.checkinId === checkinId)
        .map((request) => request.payload.type);
    expect(byCheckin(known.checkinId)).toEqual(['VEHICLE_CHECKIN_ENTERED', 'VEHICLE_CHECKIN_EXITED']);
    expect(byCheckin(approved.checkinId)).toEqual(['VEHICLE_CHECKIN_PENDING', 'VEHICLE_CHECKIN_ENTERED']);
    expect(byCheckin(denied.checkinId)).toEqual(['VEHICLE_CHECKIN_PENDING', 'VEHICLE_CHECKIN_STOPPED']);
    // The payload carries the presented check-in: a STOP says why.
    const stoppedPayload = received.find((request) => request.payload.type === 'VEHICLE_CHECKIN_STOPPED')?.payload.data
      .checkin;
    expect(stoppedPayload).toMatchObject({ checkinId: denied.checkinId, status: 'STOP', stopReason: 'Refused' });
    for (const request of received)
      expect(verifyWebhook(subscription.secret, request).data.checkin).toHaveProperty('licensePlate');
  });

  it('sends nothing for an idempotent replay or a refused change', async () => {
    await subscribe(harness.world.api, { url: receiver.url(), events: allPersonKinds });
    const first = await harness.world.api.post<PersonCheckin>(people(), visitor(), {
      idempotencyKey: 'replayed-create',
    });
    const again = await harness.world.api.post<PersonCheckin>(people(), visitor(), {
      idempotencyKey: 'replayed-create',
    });
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    const item = `${people()}/${first.body.checkinId}`;
    expect((await harness.world.api.post(`${item}/breaks/end`)).status).toBe(409);
    await harness.world.api.patch(item, {}, { idempotencyKey: 'replayed-checkout' });
    await harness.world.api.patch(item, {}, { idempotencyKey: 'replayed-checkout' });
    await receiver.waitFor(2);
    await new Promise((resolve) => setTimeout(resolve, 300));
    // Deliveries are not ordered (docs/webhooks.md): the two may arrive either way round.
    expect(receiver.received.map((request) => request.payload.type).sort()).toEqual([
      'PERSON_CHECKIN_ENTERED',
      'PERSON_CHECKIN_EXITED',
    ]);
  });
});

describe('filters', () => {
  it('sends only the subscribed kinds of the subscribed sites', async () => {
    const siteOnly = await subscribe(harness.world.api, {
      url: receiver.url('/site'),
      events: ['PERSON_CHECKIN_ENTERED'],
      siteIds: [harness.world.siteId],
    });
    await subscribe(harness.world.api, { url: receiver.url('/exits'), events: ['PERSON_CHECKIN_EXITED'] });
    const here = await checkIn(visitor(), harness.world.siteId);
    const there = await checkIn(visitor(), harness.world.otherSiteId);
    await harness.world.api.patch(`${people(harness.world.otherSiteId)}/${there.checkinId}`, {});
    await receiver.waitFor(2);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(
      receiver.received.map((request) => [request.path, request.payload.type, request.payload.data.checkin.checkinId]),
    ).toEqual([
      ['/site', 'PERSON_CHECKIN_ENTERED', here.checkinId],
      ['/exits', 'PERSON_CHECKIN_EXITED', there.checkinId],
    ]);
    expect(receiver.received[0]?.payload.siteId).toBe(harness.world.siteId);
    const log = await waitForDeliveries(
      harness.world.api,
      siteOnly.subscriptionId,
      (items) => items.length === 1 && items[0]?.status === 'delivered',
    );
    expect(log[0]?.eventId).toBe(receiver.received[0]?.id);
  });

  it('sends nothing of another account, and no event from before the subscription', async () => {
    await checkIn();
    await new Promise((resolve) => setTimeout(resolve, 100));
    await subscribe(harness.world.api, { url: receiver.url(), events: allPersonKinds });
    const other = await buildWorld(harness.server);
    await other.api.post(`/v1/sites/${other.siteId}/checkins/people`, visitor());
    const mine = await checkIn();
    await receiver.waitFor(1);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(receiver.received.map((request) => request.payload.data.checkin.checkinId)).toEqual([mine.checkinId]);
  });
});
