import { randomUUID } from 'node:crypto';
import { createMemoryLock } from './memoryLock';
import type { Clock, FetchLike, LockProvider, OnlineStatus, Platform } from './platform';

/** A deterministic source of numbers in [0, 1) (mulberry32), so a failing fault pattern can be replayed. */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

/** A clock that can be set back or forward (a kiosk whose day is replayed), with real timers. */
export interface ShiftableClock extends Clock {
  /**
   * Moves the device's idea of "now" by `ms` (negative = back in time), as setting the device's clock does:
   * the monotonic clock (`elapsed`) does not move. (Forward, it is also what a device that slept looks like.)
   */
  shift: (ms: number) => void;
}

export function shiftableClock(offsetMs = 0): ShiftableClock {
  let offset = offsetMs;
  return {
    now: () => Date.now() + offset,
    elapsed: () => performance.now(),
    shift: (ms) => (offset += ms),
    setTimer(ms, callback) {
      const handle = setTimeout(callback, ms);
      return () => clearTimeout(handle);
    },
  };
}

/** Network faults a test turns on: lost requests, and responses lost after the server committed. */
export interface NetworkFaults {
  /** Share of requests that fail before they reach the server. */
  failRequests: number;
  /** Share of responses thrown away after the server answered (the effect happened, the kiosk never hears). */
  dropResponses: number;
}

/** A network a test controls: up or down, faulty at a rate, or frozen (a crashed process never hears back). */
export interface TestNetwork extends OnlineStatus {
  setOnline: (online: boolean) => void;
  setFaults: (faults: NetworkFaults) => void;
  /**
   * The process dies: requests already on the wire still reach the server but their answers are never
   * read, and no new request leaves.
   */
  freeze: () => void;
  /** Requests that reached the server, and those whose answer the caller received. */
  readonly stats: { sent: number; delivered: number };
  fetch: FetchLike;
}

export function testNetwork(options: { online?: boolean; random?: () => number; fetch?: FetchLike } = {}): TestNetwork {
  const listeners = new Set<(online: boolean) => void>();
  const random = options.random ?? Math.random;
  const realFetch: FetchLike = options.fetch ?? ((url, init) => fetch(url, init));
  let online = options.online ?? true;
  let frozen = false;
  let faults: NetworkFaults = { failRequests: 0, dropResponses: 0 };
  const stats = { sent: 0, delivered: 0 };
  return {
    stats,
    isOnline: () => online,
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    setOnline(next) {
      if (next === online) return;
      online = next;
      for (const listener of listeners) listener(next);
    },
    setFaults: (next) => (faults = next),
    freeze: () => (frozen = true),
    async fetch(url, init) {
      if (frozen) return new Promise<Response>(() => {});
      if (!online) throw new TypeError('fetch failed: the device is offline');
      if (random() < faults.failRequests) throw new TypeError('fetch failed: connection reset before the server');
      stats.sent += 1;
      const response = await realFetch(url, init);
      if (frozen) return new Promise<Response>(() => {});
      if (random() < faults.dropResponses) {
        await response.arrayBuffer();
        throw new TypeError('fetch failed: connection lost before the response arrived');
      }
      stats.delivered += 1;
      return response;
    },
  };
}

export interface TestPlatform extends Platform {
  clock: ShiftableClock;
  network: TestNetwork;
}

/** The platform of Node tests and benchmarks: a controllable network and clock, a lock of its own. */
/** `locks`: pass one provider to several platforms to play several windows of one app. */
export function testPlatform(
  options: { network?: TestNetwork; clockOffsetMs?: number; locks?: LockProvider } = {},
): TestPlatform {
  const network = options.network ?? testNetwork();
  return {
    clock: shiftableClock(options.clockOffsetMs),
    network,
    online: network,
    fetch: network.fetch,
    locks: options.locks ?? createMemoryLock(),
    randomUUID,
  };
}
