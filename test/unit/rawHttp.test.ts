import type { AddressInfo } from 'node:net';
import { Agent, request } from 'undici';
import { afterAll, describe, expect, it } from 'vitest';
import { RawHttpConnection, type RawMessage, listenRaw, nextMessage } from '../../bench/rawHttp';

const bytes = (text: string) => Buffer.from(text, 'latin1');

describe("the benchmarks' lean HTTP/1.1 framing (bench/rawHttp.ts)", () => {
  it('reads a message framed by Content-Length, and nothing while it is incomplete', () => {
    const whole = 'POST /hook HTTP/1.1\r\nContent-Length: 5\r\n\r\nhello';
    expect(nextMessage(bytes(whole.slice(0, 20)))).toBeUndefined();
    expect(nextMessage(bytes(whole.slice(0, -1)))).toBeUndefined();
    const message = nextMessage(bytes(`${whole}GET /next`));
    expect(message?.head.split('\r\n')[0]).toBe('POST /hook HTTP/1.1');
    expect(message?.body.toString()).toBe('hello');
    expect(message?.end).toBe(whole.length);
  });

  it('reads a chunked body, and a message with neither header as having no body', () => {
    const chunked = 'HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabc\r\n2\r\nde\r\n0\r\n\r\n';
    expect(nextMessage(bytes(chunked.slice(0, -3)))).toBeUndefined();
    expect(nextMessage(bytes(chunked))).toMatchObject({ end: chunked.length });
    expect(nextMessage(bytes(chunked))?.body.toString()).toBe('abcde');
    const bare = 'HTTP/1.1 204 No Content\r\nX-A: 1\r\n\r\n';
    expect(nextMessage(bytes(bare))).toMatchObject({ end: bare.length });
    expect(nextMessage(bytes(bare))?.body.length).toBe(0);
  });
});

describe('listenRaw, a receiver for benchmarks', () => {
  const received: RawMessage[] = [];
  const serving = listenRaw((message) => received.push(message));
  const agent = new Agent({ pipelining: 4, connections: 1 });
  afterAll(async () => {
    await agent.close();
    (await serving).close();
  });

  it('answers 200 to every request of a real HTTP client, pipelined ones included, and hands over each body', async () => {
    const { port } = (await serving).address() as AddressInfo;
    const bodies = Array.from({ length: 12 }, (_, i) => JSON.stringify({ n: i, pad: 'x'.repeat(i * 100) }));
    const statuses = await Promise.all(
      bodies.map(async (body) => {
        // Marked idempotent so undici pipelines these POSTs on its one connection.
        const response = await request(`http://127.0.0.1:${port}/hook`, {
          method: 'POST',
          body,
          idempotent: true,
          dispatcher: agent,
        });
        await response.body.dump();
        return response.statusCode;
      }),
    );
    expect(statuses).toEqual(bodies.map(() => 200));
    expect(received.map((message) => message.body.toString()).sort()).toEqual([...bodies].sort());
  });

  it('is what RawHttpConnection talks to as well', async () => {
    const { port } = (await serving).address() as AddressInfo;
    const connection = new RawHttpConnection('127.0.0.1', port);
    try {
      expect(await connection.request('POST', '/hook', {}, '{"a":1}')).toEqual({ status: 200, body: '' });
      expect(await connection.request('GET', '/again', {}, undefined)).toEqual({ status: 200, body: '' });
    } finally {
      connection.close();
    }
  });
});
