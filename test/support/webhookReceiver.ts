import { once } from 'node:events';
import http from 'node:http';
import { Webhook } from 'standardwebhooks';
import { WebhookPayload } from '../../shared/src/schemas/webhooks';

/** One request a receiver got. */
export interface ReceivedWebhook {
  path: string;
  headers: http.IncomingHttpHeaders;
  /** The webhook-id header. */
  id: string;
  body: string;
  payload: WebhookPayload;
  at: number;
}

export interface ReceiverAnswer {
  status: number;
  headers?: Record<string, string>;
  /** Never answer (the sender's timeout is under test). */
  hang?: boolean;
}

export interface Receiver {
  /** The URL of a path on this receiver (`http://127.0.0.1:<port><path>`). */
  url: (path?: string) => string;
  port: number;
  received: ReceivedWebhook[];
  /** How to answer the next requests (default 200). */
  answer: (request: ReceivedWebhook, index: number) => ReceiverAnswer;
  /** Resolves when `count` requests (matching `filter`) have arrived; rejects after `timeoutMs`. */
  waitFor: (
    count: number,
    filter?: (request: ReceivedWebhook) => boolean,
    timeoutMs?: number,
  ) => Promise<ReceivedWebhook[]>;
  close: () => Promise<void>;
}

/** A real HTTP receiver on 127.0.0.1 (on `port`, or a free one) that records every webhook and answers as told. */
export async function startReceiver(port = 0): Promise<Receiver> {
  const received: ReceivedWebhook[] = [];
  const hanging = new Set<http.ServerResponse>();
  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      const entry: ReceivedWebhook = {
        path: request.url ?? '/',
        headers: request.headers,
        id: String(request.headers['webhook-id'] ?? ''),
        body,
        payload: WebhookPayload.parse(JSON.parse(body)),
        at: Date.now(),
      };
      received.push(entry);
      const answer = receiver.answer(entry, received.length - 1);
      if (answer.hang) {
        hanging.add(response);
        return;
      }
      response.writeHead(answer.status, answer.headers);
      response.end('ok');
    });
  });
  server.listen(port, '127.0.0.1');
  await once(server, 'listening');
  const address = server.address();
  const bound = typeof address === 'object' && address ? address.port : 0;
  const receiver: Receiver = {
    port: bound,
    url: (path = '/hook') => `http://127.0.0.1:${bound}${path}`,
    received,
    answer: () => ({ status: 200 }),
    async waitFor(count, filter = () => true, timeoutMs = 10_000) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const matching = received.filter(filter);
        if (matching.length >= count) return matching;
        if (Date.now() > deadline) {
          throw new Error(
            `expected ${count} webhooks, got ${matching.length}: ${matching.map((item) => item.payload.type).join(', ')}`,
          );
        }
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
    },
    async close() {
      for (const response of hanging) response.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
  return receiver;
}

/** Verifies a received webhook with the `standardwebhooks` package, as an integrator would; returns the payload. */
export function verifyWebhook(secret: string, request: ReceivedWebhook): WebhookPayload {
  const headers = {
    'webhook-id': String(request.headers['webhook-id']),
    'webhook-timestamp': String(request.headers['webhook-timestamp']),
    'webhook-signature': String(request.headers['webhook-signature']),
  };
  return WebhookPayload.parse(new Webhook(secret).verify(request.body, headers));
}
