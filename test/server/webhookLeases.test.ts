import http from 'node:http';
import { once } from 'node:events';
import { describe, expect, it } from 'vitest';
import type { WebhookDelivery } from '../../shared/src/schemas/webhooks';
import { queryOne } from '../../server/src/db/query';
import { type AttemptRecord, claimDueDeliveries, recordAttempts } from '../../server/src/webhooks/deliveryQueue';
import { purgeDeletedSubscriptionLogs } from '../../server/src/webhooks/logRetention';
import { visitor } from '../support/factories';
import { serverAndWorld } from '../support/serverAndWorld';
import { startTestDispatcher, subscribe, waitForDeliveries } from '../support/webhooks';
import { holdTransaction } from '../support/heldTransaction';
import { sql } from '../../server/src/db/sql';

const harness = serverAndWorld({ env: { WEBHOOK_ALLOW_PRIVATE_URLS: 'true' }, worldPerTest: true });

const db = () => harness.server.database;
const subscriptions = '/v1/webhooks/subscriptions';
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

interface Answer {
  status: number;
  headers?: Record<string, string>;
}

/** A loopback receiver that answers each request when `respond` (given its index) resolves. */
async function startReceiver(respond: (index: number) => Promise<Answer>) {
  const received: Array<{ id: string; at: number }> = [];
  const server = http.createServer((request, response) => {
    request.resume();
    request.on('end', () => {
      received.push({ id: String(request.headers['webhook-id']), at: Date.now() });
      void respond(received.length - 1).then((answer) => response.writeHead(answer.status, answer.headers).end());
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const address = server.address();
  return {
    url: `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}/hook`,
    received,
    async waitFor(count: number, timeoutMs = 5_000) {
      const deadline = Date.now() + timeoutMs;
      while (received.length < count) {
        if (Date.now() > deadline) throw new Error(`expected ${count} requests, got ${received.length}`);
        await pause(10);
      }
    },
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

const checkIn = async () =>
  expect((await harness.world.api.post(`/v1/sites/${harness.world.siteId}/checkins/people`, visitor())).status).toBe(
    201,
  );

interface DeliveryState {
  id: number;
  status: string;
  attempts: unknown[];
  retry_step: number;
  final_attempt: boolean;
  locked_until: Date | null;
  next_attempt_at: Date | null;
}

/** An event as the outbox holds it, already taken off the fan-out queue (the deliveries below are written by hand). */
async function fannedOutEvent(): Promise<number> {
  const event = await queryOne<{ id: number }>(
    db(),
    sql`INSERT INTO outbox_events (account_id, event_id, site_id, type, payload, created_at)
     VALUES (${harness.world.accountId}, 'evt_lease_' || md5(random()::text), ${harness.world.siteId}, 'PERSON_CHECKIN_ENTERED', '{}', now()) RETURNING id`,
  );
  await queryOne(db(), sql`DELETE FROM outbox_queue WHERE outbox_id = ${event!.id}`);
  return event!.id;
}

/** A delivery row written directly, leased until 30 s from now (as a claim leaves it). */
async function leasedDelivery(
  subscriptionId: number,
  values: { retryStep?: number; finalAttempt?: boolean } = {},
): Promise<DeliveryState> {
  const outboxId = await fannedOutEvent();
  const row = await queryOne<DeliveryState>(
    db(),
    sql`INSERT INTO webhook_deliveries (account_id, subscription_id, outbox_id, event_id, event_type, retry_step, final_attempt,
       attempts, next_attempt_at, locked_until, created_at, updated_at)
     VALUES (${harness.world.accountId}, ${subscriptionId}, ${outboxId}, 'evt_lease', 'PERSON_CHECKIN_ENTERED', ${values.retryStep ?? 2}, ${values.finalAttempt ?? true},
       '[{"at":"2026-01-01T00:00:00.000Z","statusCode":500,"error":null,"durationMs":3}]',
       now() - interval '1 minute', date_trunc('milliseconds', now()) + interval '30 s', now(), now())
     RETURNING id, status, attempts, retry_step, final_attempt, locked_until, next_attempt_at`,
  );
  return row!;
}

const stateOf = async (id: number) =>
  (await queryOne<DeliveryState>(
    db(),
    sql`SELECT id, status, attempts, retry_step, final_attempt, locked_until, next_attempt_at FROM webhook_deliveries WHERE account_id = ${harness.world.accountId} AND id = ${id}`,
  ))!;

describe('attempts that were never sent', () => {
  it('release the lease and keep the delivery as it was: no attempt logged, no retry step spent', async () => {
    const subscription = await subscribe(harness.world.api, {
      url: 'http://127.0.0.1:9/hook',
      events: ['PERSON_CHECKIN_ENTERED'],
    });
    const delivery = await leasedDelivery(subscription.subscriptionId);
    const stale: AttemptRecord = {
      accountId: harness.world.accountId,
      deliveryId: delivery.id,
      lease: new Date(0).toISOString(),
      attempted: false,
    };
    expect(await recordAttempts(db(), [stale])).toBe(0);
    expect((await stateOf(delivery.id)).locked_until).toEqual(delivery.locked_until);

    const before = Date.now();
    const release: AttemptRecord = { ...stale, lease: delivery.locked_until!.toISOString() };
    expect(await recordAttempts(db(), [release])).toBe(1);
    const after = await stateOf(delivery.id);
    expect(after).toMatchObject({
      status: 'pending',
      attempts: delivery.attempts,
      retry_step: 2,
      final_attempt: true,
      locked_until: null,
    });
    // Due again at once.
    expect(Math.abs(after.next_attempt_at!.getTime() - before)).toBeLessThan(5_000);
    // Gone before the next test's dispatcher would take it.
    expect((await harness.world.api.delete(`${subscriptions}/${subscription.subscriptionId}`)).status).toBe(204);
  });

  it('are not attempts: deliveries that waited for a connection are sent later and logged once, with no retry', async () => {
    // 20 deliveries on the sender's 16 connections to one receiver, which takes 1 s to answer: 4 of them
    // wait about a second for a connection. Before, their 1.5 s deadline ran while they waited, and they
    // were logged as timeouts. Now the deadline starts when a request is written; and one that waits longer
    // than 300 ms is given up unsent, its lease released, and claimed again until a connection is free.
    const receiver = await startReceiver(() => pause(1_000).then(() => ({ status: 204 })));
    const dispatcher = startTestDispatcher(harness.server, { timeoutMs: 1_500, queueTimeoutMs: 300 });
    try {
      const subscription = await subscribe(harness.world.api, {
        url: receiver.url,
        events: ['PERSON_CHECKIN_ENTERED'],
      });
      await Promise.all(Array.from({ length: 20 }, () => checkIn()));
      const log = await waitForDeliveries(
        harness.world.api,
        subscription.subscriptionId,
        (entries) => entries.length === 20 && entries.every((entry) => entry.status !== 'pending'),
      );
      expect(log.map((entry) => entry.attempts.map((attempt) => attempt.statusCode))).toEqual(Array(20).fill([204]));
      expect(receiver.received).toHaveLength(20);
      expect(dispatcher.stats()).toEqual({ delivered: 20, retried: 0, failed: 0, disabled: 0 });
    } finally {
      await dispatcher.stop();
      await receiver.close();
    }
  });
});

describe('a manual retry while an attempt is on the wire', () => {
  it('stands: the attempt under way is not recorded, and the retry is attempted at once', async () => {
    let answerFirst: (answer: Answer) => void = () => undefined;
    const first = new Promise<Answer>((resolve) => {
      answerFirst = resolve;
    });
    // The first attempt is held, then answered 503 "retry in an hour"; the rest are answered 200.
    const receiver = await startReceiver((index) => (index === 0 ? first : Promise.resolve({ status: 200 })));
    const dispatcher = startTestDispatcher(harness.server);
    try {
      const subscription = await subscribe(harness.world.api, {
        url: receiver.url,
        events: ['PERSON_CHECKIN_ENTERED'],
      });
      await checkIn();
      await receiver.waitFor(1);
      const [pending] = await waitForDeliveries(
        harness.world.api,
        subscription.subscriptionId,
        (entries) => entries.length === 1,
      );
      const retry = await harness.world.api.post<WebhookDelivery>(
        `${subscriptions}/${subscription.subscriptionId}/deliveries/${pending!.deliveryId}/retry`,
      );
      expect(retry.status).toBe(200);
      answerFirst({ status: 503, headers: { 'Retry-After': '3600' } });
      const [delivery] = await waitForDeliveries(
        harness.world.api,
        subscription.subscriptionId,
        (entries) => entries[0]?.status !== 'pending' || (entries[0]?.attempts.length ?? 0) > 0,
      );
      // Before, the held attempt's outcome was recorded over the retry: pending, next attempt in an hour.
      expect(delivery).toMatchObject({ status: 'delivered', nextAttemptAt: null, attempts: [{ statusCode: 200 }] });
      expect(receiver.received.map((request) => request.id)).toEqual([pending!.eventId, pending!.eventId]);
    } finally {
      await dispatcher.stop();
      await receiver.close();
    }
  });

  it('clears the lease, so the outcome of the attempt under way no longer matches', async () => {
    const subscription = await subscribe(harness.world.api, {
      url: 'http://127.0.0.1:9/hook',
      events: ['PERSON_CHECKIN_ENTERED'],
    });
    const delivery = await leasedDelivery(subscription.subscriptionId, { finalAttempt: false });
    const retry = await harness.world.api.post<WebhookDelivery>(
      `${subscriptions}/${subscription.subscriptionId}/deliveries/${delivery.id}/retry`,
    );
    expect(retry.status).toBe(200);
    const outcome: AttemptRecord = {
      accountId: harness.world.accountId,
      deliveryId: delivery.id,
      lease: delivery.locked_until!.toISOString(),
      attempted: true,
      status: 'pending',
      attempt: { at: new Date().toISOString(), statusCode: 503, error: null, durationMs: 5 },
      retryStep: 3,
      waitMs: 3_600_000,
      disableSubscription: false,
    };
    expect(await recordAttempts(db(), [outcome])).toBe(0);
    const after = await stateOf(delivery.id);
    expect(after).toMatchObject({ status: 'pending', attempts: delivery.attempts, retry_step: 2, locked_until: null });
    expect(after.next_attempt_at!.getTime()).toBe(Date.parse(retry.body.nextAttemptAt!));
  });
});

/** Backends of this test's database waiting for a lock. */
const waitingForLocks = async () =>
  (await queryOne<{ count: number }>(
    db(),
    sql`SELECT count(*)::int AS count FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'`,
  ))!.count;

async function untilWaiting(count: number) {
  const deadline = Date.now() + 5_000;
  while ((await waitingForLocks()) < count) {
    if (Date.now() > deadline) throw new Error(`expected ${count} statements waiting for a lock`);
    await pause(10);
  }
}

describe('deleting a subscription while a 410 of one of its deliveries is recorded', () => {
  it('neither deadlocks: the record and the delete both go through', async () => {
    const subscription = await subscribe(harness.world.api, {
      url: 'http://127.0.0.1:9/hook',
      events: ['PERSON_CHECKIN_ENTERED'],
    });
    const delivery = await leasedDelivery(subscription.subscriptionId, { finalAttempt: false });
    // Order the two deterministically: something else holds the delivery row; the record queues for it
    // first, then the delete. Before, the delete held the subscription and waited for the delivery, while the
    // record, once it had the delivery, waited for the subscription (to disable it): deadlock.
    const holder = await holdTransaction(harness.server.database);
    const outcomes: string[] = [];
    let recording: Promise<void> = Promise.resolve();
    let deleting: Promise<void> = Promise.resolve();
    try {
      await queryOne(
        holder.db,
        sql`SELECT id FROM webhook_deliveries WHERE account_id = ${harness.world.accountId} AND id = ${delivery.id} FOR UPDATE`,
      );
      recording = recordAttempts(db(), [
        {
          accountId: harness.world.accountId,
          deliveryId: delivery.id,
          lease: delivery.locked_until!.toISOString(),
          attempted: true,
          status: 'failed',
          attempt: { at: new Date().toISOString(), statusCode: 410, error: null, durationMs: 1 },
          retryStep: 2,
          waitMs: null,
          disableSubscription: true,
        },
      ]).then(
        (recorded) => void outcomes.push(`recorded ${recorded}`),
        (error: unknown) => void outcomes.push(`record failed: ${String(error)}`),
      );
      await untilWaiting(1);
      deleting = harness.world.api
        .delete(`${subscriptions}/${subscription.subscriptionId}`)
        .then((response) => void outcomes.push(`delete ${response.status}`));
      await untilWaiting(2);
      await holder.commit();
    } catch (error) {
      await holder.rollback().catch(() => undefined);
      throw error;
    } finally {
      await Promise.all([recording, deleting]);
    }
    expect(outcomes.sort()).toEqual(['delete 204', 'recorded 1']);
    // The log goes behind the subscription's tombstone, with the retention job.
    await purgeDeletedSubscriptionLogs(db());
    const left = await queryOne<{ count: number }>(
      db(),
      sql`SELECT count(*)::int AS count FROM webhook_deliveries WHERE account_id = ${harness.world.accountId} AND subscription_id = ${subscription.subscriptionId}`,
    );
    expect(left?.count).toBe(0);
  });
});

describe("a disabled subscription's pending deliveries leave the due range", () => {
  /** Pending deliveries of `subscriptionId` whose next attempt is scheduled (the range every claim reads). */
  const scheduled = async (subscriptionId: number) =>
    (
      await queryOne<{ count: number }>(
        db(),
        sql`SELECT count(*)::int AS count FROM webhook_deliveries
     WHERE account_id = ${harness.world.accountId} AND subscription_id = ${subscriptionId} AND status = 'pending' AND next_attempt_at < 'infinity'`,
      )
    )?.count;

  it('when a 410 disables it, and when the API disables it; enabling makes them due again', async () => {
    const subscription = await subscribe(harness.world.api, {
      url: 'http://127.0.0.1:9/hook',
      events: ['PERSON_CHECKIN_ENTERED'],
    });
    const gone = await leasedDelivery(subscription.subscriptionId, { finalAttempt: false });
    const waiting = await leasedDelivery(subscription.subscriptionId);
    await queryOne(
      db(),
      sql`UPDATE webhook_deliveries SET locked_until = NULL WHERE account_id = ${harness.world.accountId} AND id = ${waiting.id}`,
    );
    expect(await scheduled(subscription.subscriptionId)).toBe(2);

    expect(
      await recordAttempts(db(), [
        {
          accountId: harness.world.accountId,
          deliveryId: gone.id,
          lease: gone.locked_until!.toISOString(),
          attempted: true,
          status: 'failed',
          attempt: { at: new Date().toISOString(), statusCode: 410, error: null, durationMs: 1 },
          retryStep: 2,
          waitMs: null,
          disableSubscription: true,
        },
      ]),
    ).toBe(1);
    const item = `${subscriptions}/${subscription.subscriptionId}`;
    expect((await harness.world.api.get(item)).body).toMatchObject({ enabled: false });
    expect((await stateOf(waiting.id)).status).toBe('pending');
    expect(await scheduled(subscription.subscriptionId)).toBe(0);
    const log = await harness.world.api.get<{ data: WebhookDelivery[] }>(`${item}/deliveries`);
    expect(log.body.data.find((entry) => entry.deliveryId === waiting.id)).toMatchObject({
      status: 'pending',
      nextAttemptAt: null,
    });

    expect((await harness.world.api.patch(item, { enabled: true })).status).toBe(200);
    expect(await scheduled(subscription.subscriptionId)).toBe(1);
    expect((await stateOf(waiting.id)).next_attempt_at!.getTime()).toBeLessThanOrEqual(Date.now() + 1_000);

    expect((await harness.world.api.patch(item, { enabled: false })).status).toBe(200);
    expect(await scheduled(subscription.subscriptionId)).toBe(0);
    expect((await harness.world.api.patch(item, { description: 'still off' })).status).toBe(200);
    expect(await scheduled(subscription.subscriptionId)).toBe(0);
    // A manual retry while disabled is scheduled (no claim takes it before the subscription is enabled).
    const retried = await harness.world.api.post<WebhookDelivery>(`${item}/deliveries/${gone.id}/retry`);
    expect(retried.body).toMatchObject({ status: 'pending', nextAttemptAt: expect.any(String) });
    expect(await scheduled(subscription.subscriptionId)).toBe(1);
    expect((await harness.world.api.patch(item, { enabled: true })).status).toBe(200);
    expect(await scheduled(subscription.subscriptionId)).toBe(2);
  });

  it('a delivery leased when its subscription is disabled is left to its dispatcher, whose outcome keeps it due (skipped by claims) rather than parked', async () => {
    const subscription = await subscribe(harness.world.api, {
      url: 'http://127.0.0.1:9/hook',
      events: ['PERSON_CHECKIN_ENTERED'],
    });
    const retrying = await leasedDelivery(subscription.subscriptionId, { finalAttempt: false });
    const unsent = await leasedDelivery(subscription.subscriptionId, { finalAttempt: false });
    const item = `${subscriptions}/${subscription.subscriptionId}`;
    expect((await harness.world.api.patch(item, { enabled: false })).status).toBe(200);
    // Untouched by the disabling statement: the dispatcher still holds both.
    expect((await stateOf(retrying.id)).locked_until).toEqual(retrying.locked_until);
    expect(
      await recordAttempts(db(), [
        {
          accountId: harness.world.accountId,
          deliveryId: retrying.id,
          lease: retrying.locked_until!.toISOString(),
          attempted: true,
          status: 'pending',
          attempt: { at: new Date().toISOString(), statusCode: 500, error: null, durationMs: 1 },
          retryStep: 3,
          waitMs: 1_000,
          disableSubscription: false,
        },
        {
          accountId: harness.world.accountId,
          deliveryId: unsent.id,
          lease: unsent.locked_until!.toISOString(),
          attempted: false,
        },
      ]),
    ).toBe(2);
    expect(await stateOf(retrying.id)).toMatchObject({ status: 'pending', retry_step: 3, locked_until: null });
    expect(await scheduled(subscription.subscriptionId)).toBe(2);
    const claimed = await claimDueDeliveries(db(), 10, 30_000);
    expect(claimed.filter((delivery) => delivery.id === retrying.id || delivery.id === unsent.id)).toEqual([]);
    expect((await harness.world.api.patch(item, { enabled: true })).status).toBe(200);
    expect(await scheduled(subscription.subscriptionId)).toBe(2);
  });

  it('an enable that waited for a concurrent disable (a 410 recorded) sees what it parked, and leaves nothing parked', async () => {
    const subscription = await subscribe(harness.world.api, {
      url: 'http://127.0.0.1:9/hook',
      events: ['PERSON_CHECKIN_ENTERED'],
    });
    const waiting = await leasedDelivery(subscription.subscriptionId);
    await queryOne(
      db(),
      sql`UPDATE webhook_deliveries SET locked_until = NULL WHERE account_id = ${harness.world.accountId} AND id = ${waiting.id}`,
    );
    // What a 410's record transaction does, held open: the subscription disabled, its deliveries parked.
    const holder = await holdTransaction(harness.server.database);
    let enabling: Promise<number> = Promise.resolve(0);
    try {
      const tx = holder.db;
      await queryOne(
        tx,
        sql`UPDATE webhook_subscriptions SET enabled = false WHERE account_id = ${harness.world.accountId} AND id = ${subscription.subscriptionId}`,
      );
      await queryOne(
        tx,
        sql`UPDATE webhook_deliveries SET next_attempt_at = 'infinity' WHERE account_id = ${harness.world.accountId} AND subscription_id = ${subscription.subscriptionId} AND status = 'pending'`,
      );
      enabling = harness.world.api
        .patch(`${subscriptions}/${subscription.subscriptionId}`, { enabled: true })
        .then((response) => response.status);
      await untilWaiting(1);
      await holder.commit();
    } catch (error) {
      await holder.rollback().catch(() => undefined);
      throw error;
    } finally {
      await enabling;
    }
    expect(await enabling).toBe(200);
    expect((await harness.world.api.get(`${subscriptions}/${subscription.subscriptionId}`)).body).toMatchObject({
      enabled: true,
    });
    expect(await scheduled(subscription.subscriptionId)).toBe(1);
  });
});
