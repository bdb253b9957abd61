import http from 'node:http';
import { percentiles } from './harness';

export interface LoadRequest {
  method: string;
  path: string;
  headers?: Record<string, string>;
  body?: string;
}

export interface LoadResult {
  requests: number;
  perSecond: number;
  p50: number;
  p99: number;
  /** Responses whose status was not the expected one. */
  unexpected: number;
}

/**
 * A closed-loop load: `connections` clients, each sending its next request as soon as the last one
 * answered, for `durationMs`. `next(i)` makes request number i (so every request can have its own key).
 */
export async function closedLoop(options: {
  baseUrl: string;
  connections: number;
  durationMs: number;
  expectStatus: number;
  next: (index: number) => LoadRequest;
}): Promise<LoadResult> {
  const url = new URL(options.baseUrl);
  const agent = new http.Agent({ keepAlive: true, maxSockets: options.connections });
  const latencies: number[] = [];
  let index = 0;
  let unexpected = 0;
  const deadline = Date.now() + options.durationMs;
  const send = (request: LoadRequest) =>
    new Promise<number>((resolve, reject) => {
      const outgoing = http.request(
        { host: url.hostname, port: url.port, method: request.method, path: request.path, agent, headers: {
          ...request.headers,
          ...(request.body ? { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(request.body) } : {}),
        } },
        (response) => {
          response.resume();
          response.on('end', () => resolve(response.statusCode ?? 0));
        },
      );
      outgoing.on('error', reject);
      outgoing.end(request.body);
    });
  const client = async () => {
    while (Date.now() < deadline) {
      const request = options.next(index++);
      const start = process.hrtime.bigint();
      const status = await send(request);
      latencies.push(Number(process.hrtime.bigint() - start) / 1e6);
      if (status !== options.expectStatus) unexpected += 1;
    }
  };
  const started = Date.now();
  await Promise.all(Array.from({ length: options.connections }, client));
  const elapsed = (Date.now() - started) / 1000;
  agent.destroy();
  const { p50, p99 } = percentiles(latencies);
  return { requests: latencies.length, perSecond: latencies.length / elapsed, p50, p99, unexpected };
}
