import { once } from 'node:events';
import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { WebhookDispatcher } from '../../server/src/jobs/webhookDispatcher';
import { buildWorld, visitor } from '../support/factories';
import { type TestServer, startTestServer } from '../support/testServer';
import { type Receiver, startReceiver } from '../support/webhookReceiver';
import { startTestDispatcher, subscribe } from '../support/webhooks';

/** How long the slow receiver takes to answer (under the test dispatcher's 2 s attempt timeout). */
const SLOW_MS = 1_500;
/** Attempts the dispatcher runs at once: each account gets a quarter (2), each subscription half of that (1). */
const CONCURRENCY = 8;

/** A receiver on a port of its own that answers 200 only after SLOW_MS, counting what it got. */
async function startSlowReceiver() {
  let received = 0;
  const server = http.createServer((request, response) => {
    request.resume();
    request.on('end', () => {
      received += 1;
      setTimeout(() => response.writeHead(200).end('ok'), SLOW_MS);
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return {
    url: (path: string) => `http://127.0.0.1:${port}${path}`,
    received: () => received,
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

let server: TestServer;
let slow: Awaited<ReturnType<typeof startSlowReceiver>>;
let fast: Receiver;
let dispatcher: WebhookDispatcher;

beforeAll(async () => {
  server = await startTestServer({ WEBHOOK_ALLOW_PRIVATE_URLS: 'true', RATE_LIMIT_PER_MINUTE: '100000' });
  slow = await startSlowReceiver();
  fast = await startReceiver();
  dispatcher = startTestDispatcher(server, { concurrency: CONCURRENCY });
});
afterAll(async () => {
  await dispatcher?.stop();
  await slow?.close();
  await fast?.close();
  await server?.close();
});

/** Milliseconds from now until the fast receiver has got `count` webhooks (more than it had). */
async function fastArrivalMs(before: number, send: () => Promise<void>): Promise<number> {
  const started = Date.now();
  await send();
  await fast.waitFor(before + 1, () => true, 60_000);
  return Date.now() - started;
}

describe("one tenant's slow receivers do not delay another's webhooks", () => {
  it("a quiet account's first attempt goes out at once while a noisy one has a backlog at slow receivers", async () => {
    const noisy = await buildWorld(server);
    for (let i = 0; i < 5; i += 1)
      await subscribe(noisy.api, { url: slow.url(`/noisy-${i}`), events: ['PERSON_CHECKIN_ENTERED'] });
    const quiet = await buildWorld(server);
    await subscribe(quiet.api, { url: fast.url('/quiet'), events: ['PERSON_CHECKIN_ENTERED'] });

    // 8 events × 5 subscriptions: 40 attempts of 1.5 s each, five times what the dispatcher runs at once.
    for (let i = 0; i < 8; i += 1)
      expect((await noisy.api.post(`/v1/sites/${noisy.siteId}/checkins/people`, visitor(`Noisy${i}`))).status).toBe(
        201,
      );
    const deadline = Date.now() + 10_000;
    while (slow.received() === 0 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
    expect(slow.received()).toBeGreaterThan(0);

    const before = fast.received.length;
    const waited = await fastArrivalMs(before, async () => {
      expect((await quiet.api.post(`/v1/sites/${quiet.siteId}/checkins/people`, visitor('Quiet'))).status).toBe(201);
    });
    expect(waited, 'the quiet account waited for the noisy one').toBeLessThan(1_000);
  });

  it('within one account, a slow subscription does not delay its other subscriptions', async () => {
    const account = await buildWorld(server);
    await subscribe(account.api, {
      url: slow.url('/slow'),
      events: ['PERSON_CHECKIN_ENTERED'],
      siteIds: [account.siteId],
    });
    await subscribe(account.api, {
      url: fast.url('/other-site'),
      events: ['PERSON_CHECKIN_ENTERED'],
      siteIds: [account.otherSiteId],
    });
    const slowBefore = slow.received();
    for (let i = 0; i < 12; i += 1)
      expect((await account.api.post(`/v1/sites/${account.siteId}/checkins/people`, visitor(`Slow${i}`))).status).toBe(
        201,
      );
    const deadline = Date.now() + 10_000;
    while (slow.received() === slowBefore && Date.now() < deadline)
      await new Promise((resolve) => setTimeout(resolve, 20));

    const before = fast.received.length;
    const waited = await fastArrivalMs(before, async () => {
      expect(
        (await account.api.post(`/v1/sites/${account.otherSiteId}/checkins/people`, visitor('Other'))).status,
      ).toBe(201);
    });
    expect(waited, 'the other subscription waited for the slow one').toBeLessThan(1_000);
  });
});
