import http from 'node:http';
import { once } from 'node:events';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Sender, createSender } from '../../server/src/webhooks/sender';

/** One loopback receiver whose answer each test sets. */
let answer: (request: http.IncomingMessage, response: http.ServerResponse) => void = (_request, response) =>
  response.end();
let received: Array<{ headers: http.IncomingHttpHeaders; body: string }> = [];
let server: http.Server;
let url: string;
let sender: Sender;

beforeAll(async () => {
  server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      received.push({ headers: request.headers, body: Buffer.concat(chunks).toString('utf8') });
      answer(request, response);
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const address = server.address();
  url = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}/hook`;
  sender = createSender({ allowPrivateUrls: true, timeoutMs: 500 });
});

afterAll(async () => {
  await sender.close();
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

const send = () =>
  sender.send({
    url,
    headers: { 'webhook-id': 'evt_1', 'webhook-timestamp': '1', 'webhook-signature': 'v1,x' },
    body: '{"a":1}',
  });

describe('webhook sender', () => {
  it('posts the body with the signed headers and its own (which win), and reports the status and Retry-After', async () => {
    received = [];
    answer = (_request, response) => response.writeHead(503, { 'Retry-After': '7' }).end('busy');
    const result = await sender.send({
      url,
      headers: {
        'webhook-id': 'evt_1',
        'webhook-timestamp': '1',
        'webhook-signature': 'v1,x',
        'content-type': 'text/plain',
      },
      body: '{"a":1}',
    });
    expect(result).toMatchObject({ statusCode: 503, error: null, retryAfter: '7' });
    expect(received[0]?.body).toBe('{"a":1}');
    expect(received[0]?.headers).toMatchObject({
      'webhook-id': 'evt_1',
      'webhook-timestamp': '1',
      'webhook-signature': 'v1,x',
      'content-type': 'application/json',
      'user-agent': 'Gatehouse-Webhooks/1',
    });
  });

  it('keeps the status of a receiver whose body is too large or too slow, and reuses nothing broken', async () => {
    answer = (_request, response) => {
      response.writeHead(200, { 'Content-Type': 'text/plain' });
      response.end('x'.repeat(200 * 1024));
    };
    expect(await send()).toMatchObject({ statusCode: 200, error: null });
    answer = (_request, response) => {
      // The status, then a body that never ends: the deadline ends the attempt, and the status counts.
      response.writeHead(200, { 'Content-Length': '10' });
      response.write('12345');
    };
    const slow = await send();
    expect(slow).toMatchObject({ statusCode: 200 });
    expect(slow.durationMs).toBeGreaterThanOrEqual(400);
    answer = (_request, response) => response.writeHead(204).end();
    expect(await send()).toMatchObject({ statusCode: 204, error: null });
  });

  it('reports no response within the deadline (an informational 103 is no response), and a redirect as not followed', async () => {
    answer = () => undefined;
    expect(await send()).toMatchObject({ statusCode: null, error: 'No response within 500 ms' });
    answer = (_request, response) => response.writeEarlyHints({ link: '</style.css>; rel=preload' });
    expect(await send()).toMatchObject({ statusCode: null, error: 'No response within 500 ms' });
    answer = (_request, response) => response.writeHead(301, { Location: 'https://example.com/elsewhere' }).end();
    expect(await send()).toMatchObject({
      statusCode: 301,
      error: 'Redirect to https://example.com/elsewhere not followed',
    });
  });

  it('refuses private addresses unless allowed, without connecting', async () => {
    const strict = createSender({ allowPrivateUrls: false, timeoutMs: 500 });
    try {
      received = [];
      const result = await strict.send({ url, headers: {}, body: '{}' });
      expect(result.statusCode).toBeNull();
      expect(result.error).toMatch(/^Refused: 127\.0\.0\.1/);
      const named = await strict.send({ url: url.replace('127.0.0.1', 'localhost'), headers: {}, body: '{}' });
      expect(named.statusCode).toBeNull();
      expect(named.error).toMatch(/^Refused/);
      expect(received).toHaveLength(0);
    } finally {
      await strict.close();
    }
  });
});
