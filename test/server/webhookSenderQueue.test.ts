import http from 'node:http';
import { once } from 'node:events';
import { afterEach, describe, expect, it } from 'vitest';
import { type SendResult, createSender } from '../../server/src/webhooks/sender';

/** A loopback receiver that answers 204 `delayMs` after each request arrived, counting what arrived. */
async function slowReceiver(delayMs: number) {
  let received = 0;
  const server = http.createServer((request, response) => {
    request.resume();
    request.on('end', () => {
      received += 1;
      setTimeout(() => response.writeHead(204).end(), delayMs);
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const address = server.address();
  const url = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}/hook`;
  return {
    url,
    received: () => received,
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

const cleanup: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const close of cleanup.splice(0)) await close();
});

describe('webhook sender, more attempts than connections', () => {
  it('measures the deadline from sending: attempts that wait for a connection are not timed out by the wait', async () => {
    // The dispatcher's ratio (128 attempts on 16 connections) scaled down: 12 attempts on 2 connections,
    // each answered in 300 ms, so the last ones wait ~1.5 s for a connection, well past the 1 s deadline.
    const receiver = await slowReceiver(300);
    const sender = createSender({
      allowPrivateUrls: true,
      timeoutMs: 1_000,
      connectionsPerOrigin: 2,
      queueTimeoutMs: 10_000,
    });
    cleanup.push(
      () => receiver.close(),
      () => sender.close(),
    );
    const results = await Promise.all(
      Array.from({ length: 12 }, () => sender.send({ url: receiver.url, headers: {}, body: '{}' })),
    );
    expect(results.map((result) => result.statusCode)).toEqual(Array(12).fill(204));
    expect(results.every((result) => result.attempted && result.error === null)).toBe(true);
    // The duration is the exchange's, not the wait for a connection.
    expect(Math.max(...results.map((result) => result.durationMs))).toBeLessThan(1_000);
    expect(receiver.received()).toBe(12);
  });

  it("makes an attempt's headers as it leaves the queue, so its signature's timestamp and its logged time are the sending time", async () => {
    const receiver = await slowReceiver(300);
    const sender = createSender({
      allowPrivateUrls: true,
      timeoutMs: 2_000,
      connectionsPerOrigin: 1,
      queueTimeoutMs: 10_000,
    });
    cleanup.push(
      () => receiver.close(),
      () => sender.close(),
    );
    const queuedAt = Date.now();
    const made: Date[] = [];
    const headers = (at: Date) => {
      made.push(at);
      return { 'webhook-timestamp': String(Math.floor(at.getTime() / 1000)) };
    };
    const results = await Promise.all([0, 1, 2].map(() => sender.send({ url: receiver.url, headers, body: '{}' })));
    expect(results.map((result) => result.statusCode)).toEqual([204, 204, 204]);
    // One connection, 300 ms an exchange: the third left the queue after the first two were answered.
    expect(made).toHaveLength(3);
    expect(results.map((result) => result.at)).toEqual(made);
    expect(results[2]!.at.getTime() - queuedAt).toBeGreaterThanOrEqual(550);
    expect(results[0]!.at.getTime() - queuedAt).toBeLessThan(250);
  });

  it('gives up on an attempt that found no connection within the bound: not attempted, and never sent later', async () => {
    const receiver = await slowReceiver(800);
    const sender = createSender({
      allowPrivateUrls: true,
      timeoutMs: 2_000,
      connectionsPerOrigin: 1,
      queueTimeoutMs: 200,
    });
    cleanup.push(
      () => receiver.close(),
      () => sender.close(),
    );
    const send = () => sender.send({ url: receiver.url, headers: {}, body: '{}' });
    const started = performance.now();
    const [first, second] = await Promise.all([send(), send()]);
    expect(first).toMatchObject({ attempted: true, statusCode: 204, error: null });
    expect(second).toMatchObject({
      attempted: false,
      statusCode: null,
      error: 'Not sent within 200 ms (no free connection to the receiver)',
    });
    expect(performance.now() - started).toBeGreaterThanOrEqual(790);
    // The connection is free again, and the request that was given up does not go out on it.
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(receiver.received()).toBe(1);
    const third: SendResult = await send();
    expect(third).toMatchObject({ attempted: true, statusCode: 204 });
    expect(receiver.received()).toBe(2);
  });

  it('counts a refused connection as an attempt (the receiver is down), however long it waited for its turn', async () => {
    const receiver = await slowReceiver(0);
    const url = receiver.url;
    await receiver.close();
    const sender = createSender({ allowPrivateUrls: true, timeoutMs: 1_000, queueTimeoutMs: 1_000 });
    cleanup.push(() => sender.close());
    expect(await sender.send({ url, headers: {}, body: '{}' })).toMatchObject({
      attempted: true,
      statusCode: null,
      error: 'Connection refused',
    });
  });
});
