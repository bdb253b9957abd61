import { afterEach, describe, expect, it } from 'vitest';
import { queryRows } from '../../server/src/db/query';
import { webhookBacklog } from '../../server/src/webhooks/metrics';
import { createTestDatabase } from '../support/database';
import { buildWorld, visitor } from '../support/factories';
import { apiClient } from '../support/http';
import { type ServerProcess, spawnServer } from '../support/serverProcess';
import { type TestServer, startTestServer } from '../support/testServer';
import { type Receiver, startReceiver } from '../support/webhookReceiver';
import { type WorkerProcess, spawnWorker, subscribe, waitForDeliveries } from '../support/webhooks';
import { sql } from '../../server/src/db/sql';

const processes: Array<ServerProcess | WorkerProcess> = [];
const closers: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const running of processes.splice(0)) running.child.kill('SIGKILL');
  for (const close of closers.splice(0).reverse()) await close();
});

async function receiverFor(port?: number): Promise<Receiver> {
  const receiver = await startReceiver(port);
  closers.push(() => receiver.close());
  return receiver;
}

async function testServer(): Promise<TestServer> {
  const server = await startTestServer({ WEBHOOK_ALLOW_PRIVATE_URLS: 'true' });
  closers.push(() => server.close());
  return server;
}

/** Runs `count` calls of `task`, `parallel` at a time. */
async function inParallel(count: number, parallel: number, task: (index: number) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: parallel }, async () => {
      while (next < count) await task(next++);
    }),
  );
}

const EVENTS = 500;

describe('two dispatchers on one database', () => {
  it(`deliver each of ${EVENTS} events once per subscription, and both take part`, async () => {
    const server = await testServer();
    const receiver = await receiverFor();
    const world = await buildWorld(server);
    await subscribe(world.api, { url: receiver.url('/a'), events: ['PERSON_CHECKIN_ENTERED'] });
    await subscribe(world.api, {
      url: receiver.url('/b'),
      events: ['PERSON_CHECKIN_ENTERED'],
      siteIds: [world.siteId],
    });
    const create = async (index: number) => {
      const response = await world.api.post(
        `/v1/sites/${world.siteId}/checkins/people`,
        visitor(`Load${index}`, 'Test'),
      );
      expect(response.status).toBe(201);
    };
    // Half the events wait in the outbox before any dispatcher runs; the rest arrive while both race for them.
    await inParallel(EVENTS / 2, 8, create);
    expect(await webhookBacklog(server.database)).toBe(EVENTS / 2);
    const env = { DATABASE_URL: server.databaseUrl, WEBHOOK_ALLOW_PRIVATE_URLS: 'true', WEBHOOK_POLL_MS: '20' };
    const workers = await Promise.all([spawnWorker(env), spawnWorker(env)]);
    processes.push(...workers);
    await inParallel(EVENTS / 2, 8, (index) => create(EVENTS / 2 + index));

    await receiver.waitFor(EVENTS * 2, undefined, 60_000);
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(receiver.received).toHaveLength(EVENTS * 2);
    const perSubscription = (path: string) =>
      receiver.received.filter((request) => request.path === path).map((request) => request.id);
    for (const path of ['/a', '/b']) {
      expect(perSubscription(path)).toHaveLength(EVENTS);
      expect(new Set(perSubscription(path)).size).toBe(EVENTS);
    }
    const outbox = await queryRows<{ event_id: string }>(
      server.database,
      sql`SELECT event_id FROM outbox_events WHERE account_id = ${world.accountId}`,
    );
    expect(new Set(perSubscription('/a'))).toEqual(new Set(outbox.map((row) => row.event_id)));

    for (const worker of workers) worker.child.kill('SIGTERM');
    expect(await Promise.all(workers.map((worker) => worker.exited))).toEqual([0, 0]);
    const delivered = workers.map((worker) => {
      const line = worker
        .output()
        .split('\n')
        .find((text) => text.includes('webhook worker stopped'));
      return (JSON.parse(line ?? '{}') as { attempts?: { delivered?: number } }).attempts?.delivered ?? 0;
    });
    expect(delivered[0]! + delivered[1]!).toBe(EVENTS * 2);
    expect(delivered.every((count) => count > 0)).toBe(true);
    const attempts = await queryRows<{ status: string; attempts: number; leased: number }>(
      server.database,
      sql`SELECT status, jsonb_array_length(attempts) AS attempts, count(*) FILTER (WHERE locked_until IS NOT NULL)::int AS leased
       FROM webhook_deliveries GROUP BY 1, 2`,
    );
    expect(attempts).toEqual([{ status: 'delivered', attempts: 1, leased: 0 }]);
    expect(await webhookBacklog(server.database)).toBe(0);
  }, 120_000);
});

describe('undelivered events survive a restart', () => {
  it('a graceful stop leaves failed attempts pending; the restarted server delivers them with the same webhook-id', async () => {
    const probe = await startReceiver();
    const port = probe.port;
    await probe.close();
    const databaseUrl = await createTestDatabase();
    const env = {
      DATABASE_URL: databaseUrl,
      SEED_DEMO: 'false',
      WEBHOOK_ALLOW_PRIVATE_URLS: 'true',
      WEBHOOK_POLL_MS: '50',
    };
    const first = await spawnServer(env);
    processes.push(first);
    const server = await startTestServer({}, { databaseUrl });
    closers.push(() => server.close());
    const world = await buildWorld({ database: server.database, baseUrl: first.baseUrl });
    const subscription = await subscribe(world.api, {
      url: `http://127.0.0.1:${port}/hook`,
      events: ['PERSON_CHECKIN_ENTERED'],
    });
    for (let i = 0; i < 3; i += 1) await world.api.post(`/v1/sites/${world.siteId}/checkins/people`, visitor());
    // The receiver is down: each delivery fails once and waits for its first retry (5 s on the standard schedule).
    const failed = await waitForDeliveries(
      world.api,
      subscription.subscriptionId,
      (log) => log.length === 3 && log.every((entry) => entry.attempts.length === 1),
    );
    expect(
      failed.every((entry) => entry.status === 'pending' && entry.attempts[0]?.error === 'Connection refused'),
    ).toBe(true);
    first.child.kill('SIGTERM');
    expect(await first.exited).toBe(0);

    const receiver = await receiverFor(port);
    const second = await spawnServer(env);
    processes.push(second);
    const received = await receiver.waitFor(3, undefined, 20_000);
    expect(new Set(received.map((request) => request.id))).toEqual(new Set(failed.map((entry) => entry.eventId)));
    const api = apiClient(second.baseUrl, world.token);
    const log = await waitForDeliveries(api, subscription.subscriptionId, (items) =>
      items.every((entry) => entry.status === 'delivered'),
    );
    expect(log.every((entry) => entry.attempts.map((attempt) => attempt.statusCode).join() === ',200')).toBe(true);
    // The dispatcher thread reports its counts once a second.
    let metrics = '';
    for (
      let tries = 0;
      tries < 50 && !/gatehouse_webhook_deliveries_total\{result="delivered"\} 3/.test(metrics);
      tries += 1
    ) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      metrics = await (await fetch(`${second.baseUrl}/metrics`)).text();
    }
    expect(metrics).toMatch(/gatehouse_webhook_deliveries_total\{result="delivered"\} 3/);
    expect(metrics).toMatch(/gatehouse_outbox_pending 0/);
  }, 60_000);

  it('events not yet dispatched when the server is killed go out after the restart', async () => {
    const receiver = await receiverFor();
    const databaseUrl = await createTestDatabase();
    const env = { DATABASE_URL: databaseUrl, SEED_DEMO: 'false', WEBHOOK_ALLOW_PRIVATE_URLS: 'true' };
    // Polls once at start, then not for a minute: what happens after that start stays in the outbox.
    const first = await spawnServer({ ...env, WEBHOOK_POLL_MS: '60000' });
    processes.push(first);
    const server = await startTestServer({}, { databaseUrl });
    closers.push(() => server.close());
    const world = await buildWorld({ database: server.database, baseUrl: first.baseUrl });
    await subscribe(world.api, { url: receiver.url(), events: ['PERSON_CHECKIN_ENTERED'] });
    for (let i = 0; i < 3; i += 1) await world.api.post(`/v1/sites/${world.siteId}/checkins/people`, visitor());
    first.child.kill('SIGKILL');
    await first.exited;
    expect(receiver.received).toHaveLength(0);
    expect(await webhookBacklog(server.database)).toBe(3);

    const second = await spawnServer({ ...env, WEBHOOK_POLL_MS: '50' });
    processes.push(second);
    await receiver.waitFor(3);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(receiver.received).toHaveLength(3);
  }, 60_000);
});

describe('npm run worker', () => {
  it('needs DATABASE_URL, and says so in one line', async () => {
    const worker = spawnWorker({ DATABASE_URL: '' });
    await expect(worker).rejects.toThrow(/Invalid environment variable DATABASE_URL: required by the worker/);
  });
});
