import type { ResourceLimits, Worker } from 'node:worker_threads';
import { problem } from '../errors/problem';
import { tsRequireWorker } from '../threads/tsWorker';
import type { ExportJob, ExportThreadData, FromExportThread, ToExportThread } from './exportProtocol';

export interface ExportThreadOptions {
  databaseUrl: string;
  /** Exports running at once, each a thread and a database connection of its own. */
  concurrency: number;
  /** How long a further export waits for a running one to finish before it is refused (503). */
  queueMs: number;
  /** Each thread's heap: its garbage is collected within this, whatever the size of the export. */
  resourceLimits: ResourceLimits;
  /** An export that writes nothing to its client for this long is ended (a stalled download holds a slot). */
  stallMs: number;
}

/** Chunks of an export in flight, the one being written included: at most 4 buffers of 128 kB each. */
const WINDOW = 4;

/** The measured defaults (bench/README.md, The CSV export's memory). */
export const EXPORT_THREAD_DEFAULTS = {
  concurrency: 2,
  queueMs: 30_000,
  stallMs: 30_000,
  resourceLimits: { maxOldGenerationSizeMb: 24, maxYoungGenerationSizeMb: 4 },
} satisfies Omit<ExportThreadOptions, 'databaseUrl'>;

export interface ExportThreads {
  /**
   * Runs an export in a thread of its own once one of `concurrency` slots is free (503 UNAVAILABLE with
   * Retry-After after `queueMs`), one at a time per `owner` (a token or a user: a second is 409
   * EXPORT_IN_PROGRESS while the first runs or waits). Its CSV as chunks; returning the iterator early (the client left) ends the
   * thread and its connection; a failure of the thread is thrown by the iterator. A chunk's memory goes back
   * to the thread when the next one is asked for: write each out before asking (routes/sendStream.ts does).
   * `cancel` (the client left) takes a waiting export out of the queue.
   */
  start: (job: ExportJob, owner: number, cancel?: AbortSignal) => Promise<AsyncIterableIterator<Buffer>>;
  /** Exports running now. */
  running: () => number;
  /** How long an export may write nothing before it is ended (the route's stream watches it). */
  stallMs: number;
}

/** Refused when its owner already has an export running or waiting (docs/api.md, Export). */
const exportInProgress = () =>
  problem(
    'EXPORT_IN_PROGRESS',
    'An export of yours is still running: wait for it to finish (or stop its download) before starting another.',
  );

export function createExportThreads(options: ExportThreadOptions): ExportThreads {
  let running = 0;
  /** Owners (principal keys) with an export running or waiting for a slot. */
  const owners = new Set<number>();
  const waiting: Array<() => void> = [];
  const release = () => {
    const next = waiting.shift();
    if (next) next();
    else running -= 1;
  };
  const acquire = async (cancel?: AbortSignal): Promise<void> => {
    if (running < options.concurrency) {
      running += 1;
      return;
    }
    await new Promise<void>((resolve, reject) => {
      const leave = (error: Error) => {
        clearTimeout(timer);
        cancel?.removeEventListener('abort', onAbort);
        waiting.splice(waiting.indexOf(take), 1);
        reject(error);
      };
      const take = () => {
        clearTimeout(timer);
        cancel?.removeEventListener('abort', onAbort);
        resolve();
      };
      // Answered to nobody (the client left); a problem, so it is not logged as a fault.
      const onAbort = () => leave(problem('UNAVAILABLE', 'The client went away while the export waited for its turn.'));
      const seconds = Math.ceil(options.queueMs / 1000);
      const timer = setTimeout(
        () =>
          leave(
            problem('UNAVAILABLE', `${options.concurrency} exports are running; retry in ${seconds} s.`, {
              headers: { 'Retry-After': String(seconds) },
            }),
          ),
        options.queueMs,
      );
      waiting.push(take);
      cancel?.addEventListener('abort', onAbort, { once: true });
    });
  };
  return {
    async start(job, owner, cancel) {
      if (owners.has(owner)) throw exportInProgress();
      owners.add(owner);
      try {
        await acquire(cancel);
      } catch (error) {
        owners.delete(owner);
        throw error;
      }
      const data: ExportThreadData = { job, databaseUrl: options.databaseUrl, window: WINDOW };
      const worker = tsRequireWorker(new URL('./exportThreadEntry.ts', import.meta.url), {
        workerData: data,
        resourceLimits: options.resourceLimits,
      });
      // The owner may start another once this one has ended for them (written out, failed or left), which can
      // be a moment before its thread has exited and given its slot back.
      const ownerDone = () => owners.delete(owner);
      worker.once('exit', () => {
        ownerDone();
        release();
      });
      return chunksOf(worker, ownerDone);
    },
    running: () => running,
    stallMs: options.stallMs,
  };
}

/** The chunks a thread posts, in order; asking for the next gives the last one's memory back with a credit. */
function chunksOf(worker: Worker, onEnd: () => void): AsyncIterableIterator<Buffer> {
  const queue: Array<{ chunk: Buffer; bytes: ArrayBuffer }> = [];
  /** The memory of the chunk last handed on, until the next one is asked for. */
  let lent: ArrayBuffer | undefined;
  let ended = false;
  let failure: Error | undefined;
  let waiter: { resolve: (result: IteratorResult<Buffer>) => void; reject: (error: Error) => void } | undefined;

  const settle = () => {
    if (!waiter) return;
    const { resolve, reject } = waiter;
    const posted = queue.shift();
    if (posted) {
      waiter = undefined;
      lent = posted.bytes;
      resolve({ value: posted.chunk, done: false });
    } else if (failure) {
      waiter = undefined;
      onEnd();
      reject(failure);
    } else if (ended) {
      waiter = undefined;
      onEnd();
      resolve({ value: undefined, done: true });
    }
  };
  const fail = (error: Error) => {
    if (ended || failure) return;
    failure = error;
    void worker.terminate();
    settle();
  };
  worker.on('message', (message: FromExportThread) => {
    if (message.type === 'chunk')
      queue.push({ chunk: Buffer.from(message.bytes, 0, message.length), bytes: message.bytes });
    else if (message.type === 'end') ended = true;
    else fail(new Error(`the export failed: ${message.message}`));
    settle();
  });
  worker.on('error', (error) => fail(new Error(`the export thread failed: ${error.message}`)));
  worker.on('exit', (code) => fail(new Error(`the export thread exited (code ${code})`)));

  const iterator: AsyncIterableIterator<Buffer> = {
    next() {
      if (lent && !ended && !failure)
        worker.postMessage({ type: 'credit', bytes: lent } satisfies ToExportThread, [lent]);
      lent = undefined;
      return new Promise((resolve, reject) => {
        waiter = { resolve, reject };
        settle();
      });
    },
    async return() {
      onEnd();
      if (!ended) {
        ended = true;
        queue.length = 0;
        settle();
        await worker.terminate();
      }
      return { value: undefined, done: true };
    },
    [Symbol.asyncIterator]: () => iterator,
  };
  return iterator;
}
