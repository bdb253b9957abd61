import type { LockProvider } from '../platform/platform';

/**
 * Runs sync passes one at a time: within this window (a request during a pass asks for one more pass
 * after it, never a second concurrent one) and across windows (each pass holds the lock, Web Locks in a
 * browser, so two windows of the app never push the same outbox at once).
 */
export interface GuardedLoop {
  /** Asks for a pass; returns at once. */
  request: () => void;
  /** Resolves once no pass is running or asked for. */
  idle: () => Promise<void>;
}

export function guardedLoop(options: {
  locks: LockProvider;
  lockName: string;
  pass: () => Promise<void>;
  onError: (error: unknown) => void;
}): GuardedLoop {
  let running: Promise<void> | undefined;
  let wanted = false;
  const loop = async () => {
    // Nothing before `running` is set: even a pass that failed at once ends after that assignment.
    await Promise.resolve();
    try {
      while (wanted) {
        wanted = false;
        try {
          await options.locks.withLock(options.lockName, options.pass);
        } catch (error) {
          options.onError(error);
        }
      }
    } finally {
      // In the same step as the last look at `wanted`: a request can never fall between the two (it did when
      // this was cleared in a `.finally()` callback, a tick after the loop had stopped looking).
      running = undefined;
    }
  };
  return {
    request() {
      wanted = true;
      running ??= loop();
    },
    async idle() {
      while (running) await running;
    },
  };
}
