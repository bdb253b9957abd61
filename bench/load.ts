import { percentiles } from './harness';
import { RawHttpConnection } from './rawHttp';

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
  /** Responses whose status was not the expected one (or work that reported failure). */
  unexpected: number;
  /** Every latency in milliseconds, so rounds can be merged into true percentiles. */
  latencies?: number[];
  /** Wall time of the run. */
  seconds?: number;
  /** The first failure a task threw (a reset connection, a refused query), if any. */
  firstError?: string;
}

/** One unit of work of a closed loop; resolves true when it went as expected. */
export type LoadTask = () => Promise<boolean>;

/**
 * The closed loop itself: `connections` clients, each starting its next task as soon as the last one
 * finished, for `durationMs`. `next(i)` makes task number i, or says there is no more work (undefined),
 * which ends that client: a pool of prepared targets (check-ins to break, plates to let out) runs dry
 * without turning into errors. Any task may be a request, or a few SQL statements.
 */
export async function runClosedLoop(options: {
  connections: number;
  durationMs: number;
  next: (index: number) => LoadTask | undefined;
}): Promise<LoadResult> {
  const latencies: number[] = [];
  let index = 0;
  let unexpected = 0;
  let firstError: string | undefined;
  const deadline = Date.now() + options.durationMs;
  const client = async () => {
    while (Date.now() < deadline) {
      const task = options.next(index++);
      if (!task) return;
      const start = process.hrtime.bigint();
      // A task that throws counts as unexpected, and the loop goes on: one reset connection must not end the run.
      const ok = await task().catch((error: unknown) => {
        firstError ??= error instanceof Error ? error.message : String(error);
        return false;
      });
      latencies.push(Number(process.hrtime.bigint() - start) / 1e6);
      if (!ok) unexpected += 1;
    }
  };
  const started = process.hrtime.bigint();
  await Promise.all(Array.from({ length: options.connections }, client));
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  const { p50, p99 } = percentiles(latencies);
  return {
    requests: latencies.length,
    perSecond: latencies.length / seconds,
    p50,
    p99,
    unexpected,
    latencies,
    seconds,
    firstError,
  };
}

/**
 * A closed-loop HTTP load: `connections` clients, each sending its next request as soon as the last one
 * answered, for `durationMs`. `next(i)` makes request number i (so every request can have its own key),
 * or returns undefined when the pool of work is used up. `onResponse` sees each answer (e.g. to collect
 * the ids that a later phase acts on). Each client is one lean keep-alive connection (bench/rawHttp.ts).
 */
export async function closedLoop(options: {
  baseUrl: string;
  connections: number;
  durationMs: number;
  expectStatus: number;
  next: (index: number) => LoadRequest | undefined;
  onResponse?: (request: LoadRequest, status: number, body: string) => void;
}): Promise<LoadResult> {
  const url = new URL(options.baseUrl);
  const connections = Array.from(
    { length: options.connections },
    () => new RawHttpConnection(url.hostname, Number(url.port)),
  );
  const idle = [...connections];
  try {
    return await runClosedLoop({
      connections: options.connections,
      durationMs: options.durationMs,
      next: (index) => {
        const request = options.next(index);
        if (!request) return undefined;
        return async () => {
          const connection = idle.pop();
          if (!connection) throw new Error('no idle connection: the loop ran more tasks than connections');
          try {
            const { status, body } = await connection.request(
              request.method,
              request.path,
              request.headers ?? {},
              request.body,
            );
            options.onResponse?.(request, status, body);
            return status === options.expectStatus;
          } finally {
            idle.push(connection);
          }
        };
      },
    });
  } finally {
    for (const connection of connections) connection.close();
  }
}

/** Several rounds of one case as one result: rates from total work over total time, percentiles from all samples. */
export function mergeResults(results: LoadResult[]): LoadResult {
  const requests = results.reduce((sum, result) => sum + result.requests, 0);
  const seconds = results.reduce((sum, result) => sum + (result.seconds ?? result.requests / result.perSecond), 0);
  const latencies = results.flatMap((result) => result.latencies ?? []);
  const { p50, p99 } = percentiles(latencies);
  return {
    requests,
    perSecond: seconds > 0 ? requests / seconds : 0,
    p50,
    p99,
    unexpected: results.reduce((sum, result) => sum + result.unexpected, 0),
    latencies,
    seconds,
    firstError: results.find((result) => result.firstError !== undefined)?.firstError,
  };
}
