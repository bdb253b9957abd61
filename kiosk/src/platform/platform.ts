/**
 * What differs between a browser, Electron's renderer and a Node test: the engine receives one of these
 * and never asks which platform it runs on.
 */

/** Wall-clock time (for `occurredAt`) and timers (for backoff and the periodic sync). */
export interface Clock {
  /** Milliseconds since the epoch, as the device believes. */
  now: () => number;
  /**
   * Milliseconds from a monotonic clock (`performance.now()`): nobody sets it, so a wall clock that moves
   * back against it was set back. It may stand still while the device sleeps, so a wall clock that moves
   * ahead of it proves nothing.
   */
  elapsed: () => number;
  /** Calls `callback` once after `ms`; the returned function cancels it. */
  setTimer: (ms: number, callback: () => void) => () => void;
}

/** What the device says about its network link (a hint only: the engine also learns from requests). */
export interface OnlineStatus {
  isOnline: () => boolean;
  /** Calls `listener` on every change; returns the unsubscribe function. */
  subscribe: (listener: (online: boolean) => void) => () => void;
}

/** A lock shared by every window of the app, so only one sync loop runs at a time. */
export interface LockProvider {
  withLock: <T>(name: string, job: () => Promise<T>) => Promise<T>;
}

/** The subset of `fetch` the API client uses. */
import type { FetchLike } from '../../../shared/src/client/http';

export type { FetchLike };

export interface Platform {
  clock: Clock;
  online: OnlineStatus;
  fetch: FetchLike;
  locks: LockProvider;
  randomUUID: () => string;
}
