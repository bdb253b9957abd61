import type { Logger } from '../logger';

export interface PeriodicJob {
  /** Stops the timer and waits for a run under way. */
  stop: () => Promise<void>;
}

/**
 * Runs `work` now and then every `everyMs`, one run at a time (a run still going when the timer fires is
 * not doubled), off the request path; a failed run is logged and the next one tries again. `stop` aborts
 * the signal given to `work`, which should end between two of its steps.
 */
export function startPeriodic(
  name: string,
  everyMs: number,
  log: Logger,
  work: (signal: AbortSignal) => Promise<void>,
): PeriodicJob {
  const stopping = new AbortController();
  let running: Promise<void> | undefined;
  const tick = () => {
    if (running) return;
    running = work(stopping.signal)
      .catch((error: unknown) => log.warn(`${name} failed`, { error: String(error) }))
      .finally(() => {
        running = undefined;
      });
  };
  const timer = setInterval(tick, everyMs);
  timer.unref();
  tick();
  return {
    async stop() {
      clearInterval(timer);
      stopping.abort();
      await running;
    },
  };
}
