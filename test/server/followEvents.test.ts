import net from 'node:net';
import { once } from 'node:events';
import { afterEach, describe, expect, it } from 'vitest';
import type { StreamMessage } from '../../shared/src/client/eventStream';
import { type FollowState, type Follower, followEvents } from '../../shared/src/client/followEvents';
import type { PersonCheckin } from '../../shared/src/schemas/personCheckins';
import { buildToken, visitor } from '../support/factories';
import { apiClient } from '../support/http';
import { serverAndWorld } from '../support/serverAndWorld';
import { TEST_ADMIN_TOKEN } from '../support/testServer';

// The shared follower a kiosk (bearer token) or console uses, against the real server, through a proxy the
// test can cut or silence as a network would.
const harness = serverAndWorld({ env: { EVENTS_KEEPALIVE_SECONDS: '1', EVENTS_RECHECK_SECONDS: '1' } });
const people = (siteId: number) => `/v1/sites/${siteId}/checkins/people`;

/** A TCP proxy to the server: `cut` resets every connection; `silence` keeps them open but passes nothing more. */
async function proxy(target: URL) {
  const pairs = new Set<[net.Socket, net.Socket]>();
  const silenced = new Set<net.Socket>();
  const server = net.createServer((client) => {
    const upstream = net.connect(Number(target.port), target.hostname);
    const pair: [net.Socket, net.Socket] = [client, upstream];
    pairs.add(pair);
    client.on('data', (chunk) => upstream.write(chunk));
    upstream.on('data', (chunk) => {
      if (!silenced.has(client)) client.write(chunk);
    });
    const end = () => {
      pairs.delete(pair);
      client.destroy();
      upstream.destroy();
    };
    client.on('error', end).on('close', end);
    upstream.on('error', end).on('close', end);
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as net.AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/v1/events`,
    cut: () => {
      for (const [client, upstream] of pairs) {
        client.resetAndDestroy();
        upstream.destroy();
      }
    },
    /** The connections open now go quiet (as a half-open one would); new ones work. */
    silence: () => {
      for (const [client] of pairs) silenced.add(client);
    },
    close: () => server.close(),
  };
}

const followers: Follower[] = [];
const proxies: Array<{ close: () => void }> = [];
afterEach(() => {
  for (const follower of followers.splice(0)) follower.stop();
  for (const opened of proxies.splice(0)) opened.close();
});

function follow(url: string, token: string, silenceMs?: number) {
  const events: StreamMessage[] = [];
  const states: FollowState[] = [];
  const follower = followEvents({
    url,
    headers: { Authorization: `Bearer ${token}` },
    onEvent: (message) => events.push(message),
    onState: (state) => states.push(state),
    silenceMs,
  });
  followers.push(follower);
  const until = async (test: () => boolean, ms = 10_000) => {
    const deadline = Date.now() + ms;
    while (!test()) {
      if (Date.now() > deadline)
        throw new Error(`timed out; events ${JSON.stringify(events)}, states ${states.join(',')}`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  };
  const sawCheckin = (checkinId: number) => () =>
    events.some(
      (event) => event.event === 'checkin' && (JSON.parse(event.data) as { checkinId: number }).checkinId === checkinId,
    );
  return { events, states, follower, until, sawCheckin };
}

describe('followEvents (shared/src/client/followEvents.ts)', () => {
  it('after the network cuts the connection, reconnects with Last-Event-ID and gets what it missed', async () => {
    const { server, world } = harness;
    const network = await proxy(new URL(server.baseUrl));
    proxies.push(network);
    const kiosk = follow(network.url, world.token);
    await kiosk.until(() => kiosk.events.some((event) => event.event === 'reset'));
    const first = (await world.api.post<PersonCheckin>(people(world.siteId), visitor())).body;
    await kiosk.until(kiosk.sawCheckin(first.checkinId));
    network.cut();
    const missed = (await world.api.post<PersonCheckin>(people(world.siteId), visitor())).body;
    await kiosk.until(kiosk.sawCheckin(missed.checkinId));
    expect(kiosk.events.filter((event) => event.event === 'ready')).toHaveLength(1);
    expect(kiosk.events.filter((event) => event.event === 'reset')).toHaveLength(1);
    expect(kiosk.states.filter((state) => state === 'open')).toHaveLength(2);
  });

  it('a connection that goes silent (no comment within silenceMs) is dropped and made again', async () => {
    const { server, world } = harness;
    const network = await proxy(new URL(server.baseUrl));
    proxies.push(network);
    const kiosk = follow(network.url, world.token, 2_500);
    await kiosk.until(() => kiosk.states.includes('open'));
    network.silence();
    const meanwhile = (await world.api.post<PersonCheckin>(people(world.siteId), visitor())).body;
    // The silent connection is given up; the next one resumes and brings the event.
    await kiosk.until(kiosk.sawCheckin(meanwhile.checkinId));
    expect(kiosk.states.filter((state) => state === 'open').length).toBeGreaterThanOrEqual(2);
  });

  it('stops when the server refuses it (401: the token was revoked)', async () => {
    const { server, world } = harness;
    const doomed = await buildToken(server, { accountId: world.accountId, siteIds: [world.siteId] });
    const kiosk = follow(`${server.baseUrl}/v1/events`, doomed.token);
    await kiosk.until(() => kiosk.states.includes('open'));
    expect(
      (await apiClient(server.baseUrl, TEST_ADMIN_TOKEN).delete(`/v1/admin/tokens/${doomed.tokenId}`)).status,
    ).toBe(204);
    await kiosk.until(() => kiosk.states.at(-1) === 'stopped', 20_000);
  });
});
