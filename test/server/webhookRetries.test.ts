import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { PersonCheckin } from '../../shared/src/schemas/personCheckins';
import type { WebhookDelivery, WebhookSubscription } from '../../shared/src/schemas/webhooks';
import { queryOne } from '../../server/src/db/query';
import type { WebhookDispatcher } from '../../server/src/jobs/webhookDispatcher';
import { buildWorld, visitor } from '../support/factories';
import { serverAndWorld } from '../support/serverAndWorld';
import { startTestServer } from '../support/testServer';
import { type Receiver, startReceiver, verifyWebhook } from '../support/webhookReceiver';
import { deliveriesOf, startTestDispatcher, subscribe, waitForDeliveries } from '../support/webhooks';
import { purgeDeletedSubscriptionLogs } from '../../server/src/webhooks/logRetention';
import { sql } from '../../server/src/db/sql';

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

const subscriptions = '/v1/webhooks/subscriptions';
const settle = (ms = 300) => new Promise((resolve) => setTimeout(resolve, ms));

async function checkIn(): Promise<PersonCheckin> {
  const response = await harness.world.api.post<PersonCheckin>(
    `/v1/sites/${harness.world.siteId}/checkins/people`,
    visitor(),
  );
  expect(response.status).toBe(201);
  return response.body;
}

/** A subscription to check-in entries on this test's receiver. */
const subscribeHere = (path = '/hook') =>
  subscribe(harness.world.api, { url: receiver.url(path), events: ['PERSON_CHECKIN_ENTERED'] });
const finished = (count: number) => (log: WebhookDelivery[]) =>
  log.length === count && log.every((entry) => entry.status !== 'pending');

describe('retries', () => {
  it('retries after a 500 with the same webhook-id, then records it delivered', async () => {
    const before = dispatcher.stats();
    receiver.answer = (_request, index) => ({ status: index === 0 ? 500 : 200 });
    const subscription = await subscribeHere();
    await checkIn();
    const [first, second] = await receiver.waitFor(2);
    expect(first?.id).toBe(second?.id);
    expect(second!.at - first!.at).toBeGreaterThanOrEqual(40);
    expect(verifyWebhook(subscription.secret, first!)).toEqual(verifyWebhook(subscription.secret, second!));
    const [delivery] = await waitForDeliveries(harness.world.api, subscription.subscriptionId, finished(1));
    expect(delivery).toMatchObject({
      status: 'delivered',
      nextAttemptAt: null,
      eventId: first?.id,
      eventType: 'PERSON_CHECKIN_ENTERED',
    });
    expect(delivery?.attempts.map((attempt) => attempt.statusCode)).toEqual([500, 200]);
    expect(delivery?.attempts.every((attempt) => attempt.durationMs >= 0 && attempt.error === null)).toBe(true);
    const after = dispatcher.stats();
    expect(after.retried - before.retried).toBeGreaterThanOrEqual(1);
    expect(after.delivered - before.delivered).toBeGreaterThanOrEqual(1);
  });

  it('shows a pending retry with its next attempt time', async () => {
    receiver.answer = () => ({ status: 503, headers: { 'Retry-After': '30' } });
    const subscription = await subscribeHere();
    await checkIn();
    const [delivery] = await waitForDeliveries(
      harness.world.api,
      subscription.subscriptionId,
      (log) => log[0]?.attempts.length === 1,
    );
    expect(delivery).toMatchObject({ status: 'pending', attempts: [{ statusCode: 503, error: null }] });
    const wait = Date.parse(delivery!.nextAttemptAt!) - Date.parse(delivery!.attempts[0]!.at);
    expect(wait).toBeGreaterThan(29_000);
    expect(wait).toBeLessThan(31_000);
    await harness.world.api.delete(`${subscriptions}/${subscription.subscriptionId}`);
  });

  it('honours Retry-After on 429 and 503', async () => {
    receiver.answer = (_request, index) =>
      index < 2 ? { status: [429, 503][index] ?? 500, headers: { 'Retry-After': '1' } } : { status: 200 };
    const subscription = await subscribeHere();
    await checkIn();
    const [first, second, third] = await receiver.waitFor(3, undefined, 8_000);
    // The schedule says 50 ms, then 100 ms: the receiver's second wins.
    expect(second!.at - first!.at).toBeGreaterThanOrEqual(950);
    expect(third!.at - second!.at).toBeGreaterThanOrEqual(950);
    const [delivery] = await waitForDeliveries(harness.world.api, subscription.subscriptionId, finished(1));
    expect(delivery?.attempts.map((attempt) => attempt.statusCode)).toEqual([429, 503, 200]);
  });

  it('gives up after the schedule (failed, no next attempt); a manual retry makes one more attempt', async () => {
    receiver.answer = () => ({ status: 500 });
    const subscription = await subscribeHere();
    await checkIn();
    const [failed] = await waitForDeliveries(harness.world.api, subscription.subscriptionId, finished(1));
    expect(failed).toMatchObject({ status: 'failed', nextAttemptAt: null });
    expect(failed?.attempts).toHaveLength(3);

    const retryPath = `${subscriptions}/${subscription.subscriptionId}/deliveries/${failed!.deliveryId}/retry`;
    const again = await harness.world.api.post<WebhookDelivery>(retryPath);
    expect(again.status).toBe(200);
    expect(again.body.status).toBe('pending');
    const [refailed] = await waitForDeliveries(harness.world.api, subscription.subscriptionId, finished(1));
    expect(refailed?.attempts).toHaveLength(4);
    expect(refailed?.status).toBe('failed');

    receiver.answer = () => ({ status: 204 });
    await harness.world.api.post(retryPath);
    const [delivered] = await waitForDeliveries(harness.world.api, subscription.subscriptionId, finished(1));
    expect(delivered).toMatchObject({ status: 'delivered', nextAttemptAt: null });
    expect(delivered?.attempts.map((attempt) => attempt.statusCode)).toEqual([500, 500, 500, 500, 204]);
    expect(new Set(receiver.received.map((request) => request.id)).size).toBe(1);
    expect(
      (await harness.world.api.post(`${subscriptions}/${subscription.subscriptionId}/deliveries/999999999/retry`))
        .status,
    ).toBe(404);
  });

  it('a 410 fails the delivery and disables the subscription until it is enabled again', async () => {
    receiver.answer = () => ({ status: 410 });
    const subscription = await subscribeHere();
    await checkIn();
    const [gone] = await waitForDeliveries(harness.world.api, subscription.subscriptionId, finished(1));
    expect(gone).toMatchObject({ status: 'failed', attempts: [{ statusCode: 410 }] });
    const item = `${subscriptions}/${subscription.subscriptionId}`;
    const disabled = await harness.world.api.get<WebhookSubscription>(item);
    expect(disabled.body).toMatchObject({ enabled: false, disabledReason: expect.stringMatching(/410/) });

    await checkIn();
    await settle();
    expect(receiver.received).toHaveLength(1);
    receiver.answer = () => ({ status: 200 });
    expect((await harness.world.api.patch<WebhookSubscription>(item, { enabled: true })).body).toMatchObject({
      enabled: true,
      disabledReason: null,
    });
    await checkIn();
    await receiver.waitFor(2);
    await settle();
    expect(receiver.received).toHaveLength(2);
  });
});

describe('what stops or refuses a delivery', () => {
  it('deleting a subscription stops its retries and its new events, and takes its delivery log with it', async () => {
    receiver.answer = () => ({ status: 500 });
    const subscription = await subscribeHere();
    await checkIn();
    await receiver.waitFor(1);
    expect((await harness.world.api.delete(`${subscriptions}/${subscription.subscriptionId}`)).status).toBe(204);
    const attempts = receiver.received.length;
    await checkIn();
    await settle(500);
    expect(receiver.received).toHaveLength(attempts);
    expect(attempts).toBeLessThanOrEqual(2);
    // The log goes behind the subscription's tombstone, with the retention job.
    expect(await purgeDeletedSubscriptionLogs(harness.server.database)).toBeGreaterThanOrEqual(1);
    const left = await queryOne<{ count: number }>(
      harness.server.database,
      sql`SELECT count(*)::int AS count FROM webhook_deliveries WHERE account_id = ${harness.world.accountId} AND subscription_id = ${subscription.subscriptionId}`,
    );
    expect(left?.count).toBe(0);
  });

  it('does not follow redirects', async () => {
    receiver.answer = (request) =>
      request.path === '/hook' ? { status: 302, headers: { Location: receiver.url('/elsewhere') } } : { status: 200 };
    const subscription = await subscribeHere();
    await checkIn();
    const [delivery] = await waitForDeliveries(
      harness.world.api,
      subscription.subscriptionId,
      (log) => log[0]?.attempts.length === 1,
    );
    expect(delivery?.attempts[0]).toMatchObject({ statusCode: 302, error: expect.stringMatching(/not followed/) });
    await settle(100);
    expect(receiver.received.every((request) => request.path === '/hook')).toBe(true);
    await harness.world.api.delete(`${subscriptions}/${subscription.subscriptionId}`);
  });

  it('gives up on a receiver that does not answer within the timeout', async () => {
    receiver.answer = () => ({ status: 200, hang: true });
    const subscription = await subscribeHere();
    await checkIn();
    const [delivery] = await waitForDeliveries(
      harness.world.api,
      subscription.subscriptionId,
      (log) => log[0]?.attempts.length === 1,
      8_000,
    );
    expect(delivery?.attempts[0]).toMatchObject({ statusCode: null, error: 'No response within 2000 ms' });
    expect(delivery?.attempts[0]?.durationMs).toBeGreaterThanOrEqual(1_900);
    await harness.world.api.delete(`${subscriptions}/${subscription.subscriptionId}`);
  });

  it('records a refused connection as an attempt without a status', async () => {
    const closed = await startReceiver();
    const url = closed.url();
    await closed.close();
    const subscription = await subscribe(harness.world.api, { url, events: ['PERSON_CHECKIN_ENTERED'] });
    await checkIn();
    // Retried 50 and 100 ms later (the test schedule), so wait for the log to settle rather than catch the
    // one-attempt moment: a loaded machine may read it only after the retries.
    const [delivery] = await waitForDeliveries(harness.world.api, subscription.subscriptionId, finished(1));
    expect(delivery?.status).toBe('failed');
    expect(delivery?.attempts).toHaveLength(3);
    for (const attempt of delivery?.attempts ?? []) {
      expect(attempt).toMatchObject({ statusCode: null, error: 'Connection refused' });
    }
    await harness.world.api.delete(`${subscriptions}/${subscription.subscriptionId}`);
  });
});

describe('the address check at delivery time (DNS rebinding)', () => {
  it('refuses to connect to a private address when WEBHOOK_ALLOW_PRIVATE_URLS is off, whatever the URL was when saved', async () => {
    // Saved while private URLs were allowed (or while the name still resolved to a public address) …
    const permissive = await startTestServer({ WEBHOOK_ALLOW_PRIVATE_URLS: 'true' });
    // A retry a minute away: the log holds its one attempt while the test reads it (the test default of 50 ms
    // let a loaded machine see all three attempts first).
    const strict = startTestDispatcher(permissive, {
      allowPrivateUrls: false,
      retryPolicy: { scheduleMs: [60_000, 60_000], random: () => 0.5 },
    });
    try {
      const owner = await buildWorld(permissive);
      const literal = await subscribe(owner.api, { url: receiver.url('/literal'), events: ['PERSON_CHECKIN_ENTERED'] });
      const named = await subscribe(owner.api, {
        url: `http://localhost:${receiver.port}/named`,
        events: ['PERSON_CHECKIN_ENTERED'],
      });
      expect((await owner.api.post(`/v1/sites/${owner.siteId}/checkins/people`, visitor())).status).toBe(201);
      // … a dispatcher that does not allow them refuses the connection itself: the receiver hears nothing.
      const oneAttempt = (log: WebhookDelivery[]) => log[0]?.attempts.length === 1;
      const [byLiteral] = await waitForDeliveries(owner.api, literal.subscriptionId, oneAttempt);
      const [byName] = await waitForDeliveries(owner.api, named.subscriptionId, oneAttempt);
      expect(byLiteral?.attempts[0]).toMatchObject({
        statusCode: null,
        error: expect.stringMatching(/not a public address/),
      });
      expect(byName?.attempts[0]).toMatchObject({
        statusCode: null,
        error: expect.stringMatching(/localhost resolves to an address that is not public/),
      });
      expect(byName?.attempts[0]?.error).not.toMatch(/127\.0\.0\.1|::1/);
      expect(byName?.status).toBe('pending');
      expect(receiver.received).toHaveLength(0);
    } finally {
      await strict.stop();
      await permissive.close();
    }
  });
});

describe('the delivery log', () => {
  it('pages newest first by cursor and filters by status', async () => {
    const subscription = await subscribeHere();
    for (let i = 0; i < 5; i += 1) await checkIn();
    const log = await waitForDeliveries(harness.world.api, subscription.subscriptionId, finished(5));
    const base = `${subscriptions}/${subscription.subscriptionId}/deliveries`;
    const seen: number[] = [];
    let cursor: string | null = null;
    do {
      const query: string = cursor ? `?limit=2&cursor=${cursor}` : '?limit=2';
      const page = await harness.world.api.get<{ data: WebhookDelivery[]; nextCursor: string | null }>(
        `${base}${query}`,
      );
      expect(page.body.data.length).toBeLessThanOrEqual(2);
      seen.push(...page.body.data.map((entry) => entry.deliveryId));
      cursor = page.body.nextCursor;
    } while (cursor);
    expect(seen).toEqual(log.map((entry) => entry.deliveryId));
    expect(seen).toEqual([...seen].sort((a, b) => b - a));
    expect(await deliveriesOf(harness.world.api, subscription.subscriptionId, '?status=failed,pending')).toEqual([]);
    expect(await deliveriesOf(harness.world.api, subscription.subscriptionId, '?status=delivered')).toHaveLength(5);
    expect((await harness.world.api.get(`${base}?status=lost`)).status).toBe(400);
  });
});
