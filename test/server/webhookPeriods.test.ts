import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { PersonCheckin } from '../../shared/src/schemas/personCheckins';
import type { WebhookDispatcher } from '../../server/src/jobs/webhookDispatcher';
import { queryOne, queryRows } from '../../server/src/db/query';
import { visitor } from '../support/factories';
import { serverAndWorld } from '../support/serverAndWorld';
import { type Receiver, startReceiver } from '../support/webhookReceiver';
import { startTestDispatcher, subscribe, waitForDeliveries } from '../support/webhooks';
import { sql } from '../../server/src/db/sql';

// No dispatcher runs while the events happen: the fan-out comes after the fact, as it does when the
// dispatcher holds events back for busy requests (WEBHOOK_YIELD_MS) or was down.
const harness = serverAndWorld({ env: { WEBHOOK_ALLOW_PRIVATE_URLS: 'true' }, worldPerTest: true });
let receiver: Receiver;
let dispatcher: WebhookDispatcher | undefined;
let subscriptionId: number;

beforeEach(async () => {
  receiver = await startReceiver();
  subscriptionId = (await subscribe(harness.world.api, { url: receiver.url(), events: ['PERSON_CHECKIN_ENTERED'] }))
    .subscriptionId;
});
afterEach(async () => {
  await dispatcher?.stop();
  dispatcher = undefined;
  await receiver?.close();
});

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function checkIn(lastName: string): Promise<PersonCheckin> {
  const response = await harness.world.api.post<PersonCheckin>(
    `/v1/sites/${harness.world.siteId}/checkins/people`,
    visitor('Ada', lastName),
  );
  expect(response.status).toBe(201);
  return response.body;
}

const setEnabled = async (enabled: boolean) =>
  expect((await harness.world.api.patch(`/v1/webhooks/subscriptions/${subscriptionId}`, { enabled })).status).toBe(200);

const lastNames = () =>
  receiver.received.map(
    (request) => (JSON.parse(request.body) as { data: { checkin: PersonCheckin } }).data.checkin.person.lastName,
  );

describe('the spells are kept by the database, for every writer', () => {
  it('a subscription written or switched by plain SQL (a server of an older version) has its spells, and the API can switch it after', async () => {
    const row = await queryOne<{ id: number }>(
      harness.server.database,
      sql`INSERT INTO webhook_subscriptions (account_id, url, events, all_sites, secret, created_at, updated_at)
       VALUES (${harness.world.accountId}, ${receiver.url()}, ARRAY['PERSON_CHECKIN_ENTERED'], true, 'whsec_x', now(), now()) RETURNING id`,
    );
    const id = row?.id ?? 0;
    const spells = () =>
      queryRows<{ open: boolean }>(
        harness.server.database,
        sql`SELECT disabled_at IS NULL AS open FROM webhook_subscription_periods WHERE account_id = ${harness.world.accountId} AND subscription_id = ${id} ORDER BY enabled_at`,
      );
    expect(await spells()).toEqual([{ open: true }]);
    await queryOne(
      harness.server.database,
      sql`UPDATE webhook_subscriptions SET enabled = false WHERE account_id = ${harness.world.accountId} AND id = ${id}`,
    );
    expect(await spells()).toEqual([{ open: false }]);
    expect((await harness.world.api.patch(`/v1/webhooks/subscriptions/${id}`, { enabled: true })).status).toBe(200);
    expect((await harness.world.api.patch(`/v1/webhooks/subscriptions/${id}`, { enabled: true })).status).toBe(200);
    expect(await spells()).toEqual([{ open: false }, { open: true }]);
  });
});

describe('a subscription gets the events of the time it was enabled, whenever they are fanned out', () => {
  it('an event of a disabled spell is not delivered, even when the subscription is enabled again before the fan-out', async () => {
    await checkIn('Before');
    await setEnabled(false);
    await checkIn('While-disabled');
    await setEnabled(true);
    await checkIn('After');

    dispatcher = startTestDispatcher(harness.server);
    await receiver.waitFor(2);
    await sleep(300);
    expect(lastNames().sort()).toEqual(['After', 'Before']);
  });

  it('an event from before a disable, fanned out after it, waits parked and is delivered once enabled again', async () => {
    await checkIn('Before');
    await setEnabled(false);

    dispatcher = startTestDispatcher(harness.server);
    const parked = await waitForDeliveries(harness.world.api, subscriptionId, (deliveries) => deliveries.length === 1);
    expect(parked[0]).toMatchObject({ status: 'pending', nextAttemptAt: null, attempts: [] });
    await sleep(200);
    expect(receiver.received).toHaveLength(0);

    await setEnabled(true);
    await receiver.waitFor(1);
    expect(lastNames()).toEqual(['Before']);
  });
});
