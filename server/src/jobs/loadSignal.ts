import { performance } from 'node:perf_hooks';

/** How often the main thread's load is measured. */
const SAMPLE_MS = 100;
/** Above this share of the last sample running code (10 %: well past a trickle of requests), the main thread counts as busy, in per mille. */
export const BUSY_PER_MILLE = 100;

/**
 * The main thread's event-loop utilization (the share of time it ran code rather than waited), measured
 * every 100 ms and kept in shared memory, so background threads can read how busy the requests keep it
 * without a message. In per mille.
 */
export function startLoadSignal(): { buffer: SharedArrayBuffer; stop: () => void } {
  const buffer = new SharedArrayBuffer(Int32Array.BYTES_PER_ELEMENT);
  const cell = new Int32Array(buffer);
  let last = performance.eventLoopUtilization();
  const timer = setInterval(() => {
    const delta = performance.eventLoopUtilization(last);
    last = performance.eventLoopUtilization();
    Atomics.store(cell, 0, Math.round(delta.utilization * 1000));
  }, SAMPLE_MS).unref();
  return { buffer, stop: () => clearInterval(timer) };
}

/** Reads a load signal (in another thread): whether the main thread was busy over its last sample. */
export function busyReader(buffer: SharedArrayBuffer): () => boolean {
  const cell = new Int32Array(buffer);
  return () => Atomics.load(cell, 0) >= BUSY_PER_MILLE;
}
