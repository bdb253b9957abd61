import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { queryOne, queryRows } from '../../server/src/db/query';
import { retryDelivery } from '../../server/src/commands/deliveryRetrier';
import {
  pruneSubscriptionSpells,
  purgeDeletedSubscriptionLogs,
  purgeWebhookLog,
} from '../../server/src/webhooks/logRetention';
import { type World, buildWorld, visitor } from '../support/factories';
import { serverAndWorld } from '../support/serverAndWorld';
import { type Receiver, startReceiver } from '../support/webhookReceiver';
import { deliveriesOf, startTestDispatcher, subscribe, waitForDeliveries } from '../support/webhooks';
import { holdTransaction } from '../support/heldTransaction';
import { sql } from '../../server/src/db/sql';

const harness = serverAndWorld({ env: { WEBHOOK_ALLOW_PRIVATE_URLS: 'true' }, worldPerTest: true });
let receiver: Receiver;

beforeAll(async () => {
  receiver = await startReceiver();
  // `/later` stands for a receiver that is down for a while: 503, retry in an hour (the delivery stays pending).
  receiver.answer = (request) =>
    request.path === '/later' ? { status: 503, headers: { 'Retry-After': '3600' } } : { status: 200 };
});
afterAll(async () => receiver?.close());

const db = () => harness.server.database;
const DAY = 86_400_000;
/** The retention's cut-off as the job computes it with the default 30 days. */
const cutoff = () => new Date(Date.now() - 30 * DAY);
/** The purge of this test's account only (the file's tests share one database). */
const mine = () => ({ accountIds: [harness.world.accountId] });

async function checkIn(target: World = harness.world): Promise<number> {
  const response = await target.api.post<{ checkinId: number }>(
    `/v1/sites/${target.siteId}/checkins/people`,
    visitor(),
  );
  expect(response.status, response.text).toBe(201);
  const row = await queryOne<{ id: number }>(
    db(),
    sql`SELECT id FROM outbox_events WHERE account_id = ${target.accountId} AND payload->'data'->'checkin'->>'checkinId' = ${String(response.body.checkinId)}`,
  );
  return row!.id;
}

/** Makes events look as old as `days` (the purge reads their `created_at`). */
async function age(accountId: number, eventIds: number[], days: number): Promise<void> {
  await queryRows(
    db(),
    sql`UPDATE outbox_events SET created_at = created_at - ${days} * interval '1 day' WHERE account_id = ${accountId} AND id = ANY (${eventIds}::bigint[])`,
  );
}

/** `count` events delivered to a new subscription, then made 40 days old (past the default retention). */
async function oldDeliveredEvents(count: number) {
  const dispatcher = startTestDispatcher(harness.server);
  const fine = await subscribe(harness.world.api, { url: receiver.url('/ok'), events: ['PERSON_CHECKIN_ENTERED'] });
  const events: number[] = [];
  try {
    for (let index = 0; index < count; index += 1) events.push(await checkIn());
    await waitForDeliveries(
      harness.world.api,
      fine.subscriptionId,
      (log) => log.length === count && log.every((entry) => entry.status === 'delivered'),
    );
  } finally {
    await dispatcher.stop();
  }
  await age(harness.world.accountId, events, 40);
  return { fine, events };
}

const eventsLeft = async (accountId: number) =>
  (
    await queryRows<{ id: number }>(db(), sql`SELECT id FROM outbox_events WHERE account_id = ${accountId} ORDER BY id`)
  ).map((row) => row.id);

const deliveriesLeft = async (accountId: number) =>
  queryRows<{ outbox_id: number; subscription_id: number; status: string }>(
    db(),
    sql`SELECT outbox_id, subscription_id, status FROM webhook_deliveries WHERE account_id = ${accountId} ORDER BY outbox_id, subscription_id`,
  );

describe('the webhook log retention', () => {
  it('deletes old events and their finished deliveries, and keeps what is pending, still queued or recent', async () => {
    const quiet = await buildWorld(harness.server);
    const dispatcher = startTestDispatcher(harness.server);
    let kept: { pending: number; recent: number };
    let gone: number[];
    let unsubscribed: number;
    const fine = await subscribe(harness.world.api, { url: receiver.url('/ok'), events: ['PERSON_CHECKIN_ENTERED'] });
    try {
      gone = [await checkIn(), await checkIn()];
      await waitForDeliveries(
        harness.world.api,
        fine.subscriptionId,
        (log) => log.length === 2 && log.every((entry) => entry.status === 'delivered'),
      );
      // From here on, every event also goes to a receiver that keeps answering "later".
      const down = await subscribe(harness.world.api, {
        url: receiver.url('/later'),
        events: ['PERSON_CHECKIN_ENTERED'],
      });
      // An event of an account without subscriptions (fanned out to nobody, before the next ones).
      unsubscribed = await checkIn(quiet);
      kept = { pending: await checkIn(), recent: await checkIn() };
      await waitForDeliveries(
        harness.world.api,
        down.subscriptionId,
        (log) => log.length === 2 && log.every((entry) => entry.attempts.length === 1),
      );
      await waitForDeliveries(
        harness.world.api,
        fine.subscriptionId,
        (log) => log.length === 4 && log.every((entry) => entry.status === 'delivered'),
      );
    } finally {
      await dispatcher.stop();
    }
    // An event no dispatcher has fanned out yet.
    const queued = await checkIn();
    await age(harness.world.accountId, [...gone, kept.pending, queued], 40);
    await age(quiet.accountId, [unsubscribed], 40);

    // Batches of two, so the purge walks the account's events in several statements.
    expect(
      await purgeWebhookLog(db(), cutoff(), { batch: 2, accountIds: [harness.world.accountId, quiet.accountId] }),
    ).toEqual({ events: 3, deliveries: 2 });

    expect(await eventsLeft(harness.world.accountId)).toEqual([kept.pending, kept.recent, queued]);
    expect(await eventsLeft(quiet.accountId)).toEqual([]);
    // The event still retrying for one subscription keeps its delivered delivery to the other too.
    expect((await deliveriesLeft(harness.world.accountId)).map((row) => [row.outbox_id, row.status])).toEqual([
      [kept.pending, 'delivered'],
      [kept.pending, 'pending'],
      [kept.recent, 'delivered'],
      [kept.recent, 'pending'],
    ]);
    expect(await deliveriesOf(harness.world.api, fine.subscriptionId)).toHaveLength(2);
    // Nothing older is left to purge.
    expect(
      await purgeWebhookLog(db(), cutoff(), { batch: 2, accountIds: [harness.world.accountId, quiet.accountId] }),
    ).toEqual({ events: 0, deliveries: 0 });
  });

  it('and a manual retry never leave a pending delivery without its event', async () => {
    const { fine, events } = await oldDeliveredEvents(2);
    const [newer, older] = await deliveriesOf(harness.world.api, fine.subscriptionId);
    const retryPath = (deliveryId: number) =>
      `/v1/webhooks/subscriptions/${fine.subscriptionId}/deliveries/${deliveryId}/retry`;

    // The purge first: holding the events, it makes the retry wait, and the retry then finds nothing (404).
    const purging = await holdTransaction(harness.server.database);
    let retried: Promise<{ status: number }>;
    try {
      expect(await purgeWebhookLog(purging.db, cutoff(), mine())).toEqual({ events: 2, deliveries: 2 });
      let settled = false;
      retried = harness.world.api.post(retryPath(older!.deliveryId), {}).then((response) => {
        settled = true;
        return response;
      });
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(settled).toBe(false);
    } finally {
      await purging.rollback();
    }
    // Rolled back, so the retry then found the delivery and its event, and revived it.
    expect((await retried).status).toBe(200);

    // The retry first: the purge skips the event it holds; once committed, the delivery is pending and kept.
    const retrying = await holdTransaction(harness.server.database);
    try {
      const revived = await retryDelivery(retrying.db, {
        accountId: harness.world.accountId,
        subscriptionId: fine.subscriptionId,
        deliveryId: newer!.deliveryId,
        now: new Date(),
      });
      expect(revived?.status).toBe('pending');
      expect(await purgeWebhookLog(db(), cutoff(), mine())).toEqual({ events: 0, deliveries: 0 });
    } finally {
      await retrying.commit();
    }
    expect(await purgeWebhookLog(db(), cutoff(), mine())).toEqual({ events: 0, deliveries: 0 });
    expect(await eventsLeft(harness.world.accountId)).toEqual(events);

    // With nothing holding them back and nothing pending, both go; a retry then answers 404.
    await queryRows(
      db(),
      sql`UPDATE webhook_deliveries SET status = 'failed', next_attempt_at = NULL WHERE account_id = ${harness.world.accountId}`,
    );
    const committed = await holdTransaction(harness.server.database);
    let late: Promise<{ status: number }>;
    try {
      expect(await purgeWebhookLog(committed.db, cutoff(), mine())).toEqual({ events: 2, deliveries: 2 });
      late = harness.world.api.post(retryPath(newer!.deliveryId), {});
      await new Promise((resolve) => setTimeout(resolve, 200));
    } finally {
      await committed.commit();
    }
    expect((await late).status).toBe(404);
    expect(await deliveriesLeft(harness.world.accountId)).toEqual([]);
  });

  it('sees a delivery made pending while it waited for a lock, and keeps that delivery and its event', async () => {
    const { fine, events } = await oldDeliveredEvents(2);
    const [, older] = await deliveriesOf(harness.world.api, fine.subscriptionId);

    // A change of the subscription holds its row: the purge's first statement waits for it, its snapshot taken.
    const changing = await holdTransaction(harness.server.database);
    let purging: Promise<unknown>;
    try {
      await queryRows(
        changing.db,
        sql`SELECT id FROM webhook_subscriptions WHERE account_id = ${harness.world.accountId} AND id = ${fine.subscriptionId} FOR UPDATE`,
      );
      purging = purgeWebhookLog(db(), cutoff(), mine());
      await new Promise((resolve) => setTimeout(resolve, 200));
      // Meanwhile the older delivery is made pending again and committed before the purge gets on, as a
      // manual retry writes it (the retry itself would now wait for the subscription's lock too).
      await queryRows(
        db(),
        sql`UPDATE webhook_deliveries SET status = 'pending', final_attempt = true, next_attempt_at = now()
        WHERE account_id = ${harness.world.accountId} AND id = ${older!.deliveryId}`,
      );
    } finally {
      await changing.commit();
    }
    expect(await purging).toEqual({ events: 1, deliveries: 1 });
    expect(await eventsLeft(harness.world.accountId)).toEqual([events[0]]);
    expect((await deliveriesLeft(harness.world.accountId)).map((row) => [row.outbox_id, row.status])).toEqual([
      [events[0], 'pending'],
    ]);
  });

  it('walks on past an event stamped a little later than the next ones, and stops between batches when told', async () => {
    const events = [await checkIn(), await checkIn(), await checkIn()];
    // Each id is taken when its event is written, each time stamped when its request began, by its instance's
    // clock: the first event here looks ten minutes younger than the cut-off, the others forty days older.
    await queryRows(
      db(),
      sql`UPDATE outbox_events SET created_at = ${cutoff()}::timestamptz + interval '10 minutes' WHERE account_id = ${harness.world.accountId} AND id = ${events[0]}`,
    );
    await age(harness.world.accountId, events.slice(1), 40);
    const dispatcher = startTestDispatcher(harness.server);
    try {
      // vi.waitFor's own 1 s is short for a dispatcher's polls on a loaded machine.
      await vi.waitFor(
        async () =>
          expect(
            await queryOne(db(), sql`SELECT 1 FROM outbox_queue WHERE account_id = ${harness.world.accountId}`),
          ).toBeUndefined(),
        { timeout: 10_000 },
      );
    } finally {
      await dispatcher.stop();
    }
    expect(await purgeWebhookLog(db(), cutoff(), { ...mine(), batch: 1, signal: AbortSignal.abort() })).toEqual({
      events: 0,
      deliveries: 0,
    });
    expect(await purgeWebhookLog(db(), cutoff(), { ...mine(), batch: 1 })).toEqual({ events: 2, deliveries: 0 });
    expect(await eventsLeft(harness.world.accountId)).toEqual([events[0]]);
  });

  it("deletes a deleted subscription's log in batches behind its tombstone, one instance at a time", async () => {
    const dispatcher = startTestDispatcher(harness.server);
    const fine = await subscribe(harness.world.api, { url: receiver.url('/ok'), events: ['PERSON_CHECKIN_ENTERED'] });
    try {
      for (let index = 0; index < 5; index += 1) await checkIn();
      await waitForDeliveries(
        harness.world.api,
        fine.subscriptionId,
        (log) => log.length === 5 && log.every((entry) => entry.status === 'delivered'),
      );
    } finally {
      await dispatcher.stop();
    }
    const [last] = await deliveriesOf(harness.world.api, fine.subscriptionId);
    // A subscription whose receiver is down: its retries wait, due in an hour.
    const down = await subscribe(harness.world.api, {
      url: receiver.url('/later'),
      events: ['PERSON_CHECKIN_ENTERED'],
    });
    const retrying = startTestDispatcher(harness.server);
    try {
      await checkIn();
      await waitForDeliveries(
        harness.world.api,
        down.subscriptionId,
        (log) => log.length === 1 && log[0]!.attempts.length === 1,
      );
    } finally {
      await retrying.stop();
    }
    expect((await harness.world.api.delete(`/v1/webhooks/subscriptions/${fine.subscriptionId}`)).status).toBe(204);
    expect((await harness.world.api.delete(`/v1/webhooks/subscriptions/${down.subscriptionId}`)).status).toBe(204);
    // Its pending delivery is parked out of the due range at once, as a disable does: no claim reads past it.
    const parked = await queryOne<{ due: string }>(
      db(),
      sql`SELECT next_attempt_at::text AS due FROM webhook_deliveries WHERE account_id = ${harness.world.accountId} AND subscription_id = ${down.subscriptionId}`,
    );
    expect(parked?.due).toBe('infinity');
    // Nothing of a deleted subscription can be revived, even by a retry that found it a moment before.
    expect(
      await retryDelivery(db(), {
        accountId: harness.world.accountId,
        subscriptionId: fine.subscriptionId,
        deliveryId: last!.deliveryId,
        now: new Date(),
      }),
    ).toBeUndefined();
    const logLeft = async () => (await deliveriesLeft(harness.world.accountId)).length;
    expect(await logLeft()).toBe(6 + 1);

    // Another instance holds the tombstones: this one leaves them alone.
    const other = await holdTransaction(harness.server.database);
    try {
      await queryRows(
        other.db,
        sql`SELECT 1 FROM webhook_subscription_tombstones WHERE account_id = ${harness.world.accountId} FOR UPDATE`,
      );
      expect(await purgeDeletedSubscriptionLogs(db(), { batch: 2 })).toBe(0);
    } finally {
      await other.rollback();
    }
    expect(await purgeDeletedSubscriptionLogs(db(), { batch: 2 })).toBe(7);
    expect(await logLeft()).toBe(0);
    const tombstones = await queryRows(
      db(),
      sql`SELECT 1 FROM webhook_subscription_tombstones WHERE account_id = ${harness.world.accountId}`,
    );
    expect(tombstones).toEqual([]);
  });
});

describe('the enabled spells of subscriptions (migration 0010)', () => {
  it('are pruned once they ended before the retention and before every event still waiting for its fan-out', async () => {
    const subscription = await subscribe(harness.world.api, {
      url: receiver.url('/ok'),
      events: ['PERSON_CHECKIN_ENTERED'],
    });
    for (const enabled of [false, true]) {
      expect(
        (await harness.world.api.patch(`/v1/webhooks/subscriptions/${subscription.subscriptionId}`, { enabled }))
          .status,
      ).toBe(200);
    }
    const spells = async () =>
      (
        await queryRows<{ open: boolean }>(
          db(),
          sql`SELECT disabled_at IS NULL AS open FROM webhook_subscription_periods WHERE account_id = ${harness.world.accountId} AND subscription_id = ${subscription.subscriptionId} ORDER BY enabled_at`,
        )
      ).map((row) => row.open);
    // The first spell ended 50 days ago; an event of 60 days ago still waits for its fan-out (a dispatcher was down).
    await queryRows(
      db(),
      sql`UPDATE webhook_subscription_periods SET enabled_at = now() - interval '55 days', disabled_at = now() - interval '50 days'
      WHERE account_id = ${harness.world.accountId} AND subscription_id = ${subscription.subscriptionId} AND disabled_at IS NOT NULL`,
    );
    const waiting = await checkIn();
    await age(harness.world.accountId, [waiting], 60);
    expect(await pruneSubscriptionSpells(db(), cutoff())).toBe(0);
    expect(await spells()).toEqual([false, true]);
    // Fanned out: no event can fall in that spell any more.
    await queryRows(db(), sql`DELETE FROM outbox_queue WHERE outbox_id = ${waiting}`);
    expect(await pruneSubscriptionSpells(db(), cutoff())).toBeGreaterThanOrEqual(1);
    expect(await spells()).toEqual([true]);
  });
});
