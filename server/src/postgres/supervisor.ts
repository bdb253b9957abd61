import type { Logger } from '../logger';
import type { RunningPostgres } from './embeddedPostgres';

/** How long one outage may last before the server gives up on its embedded PostgreSQL. */
const RESTART_WITHIN_MS = 30_000;
const FIRST_RETRY_MS = 250;
const LONGEST_RETRY_MS = 5_000;

export interface SupervisedPostgres {
  /** False once the cluster died and could not be restarted: the process can no longer recover by itself. */
  healthy: () => boolean;
  stop: () => Promise<void>;
}

/**
 * Keeps the embedded PostgreSQL running: when it dies (a kill, a crash) it is started again on the same
 * folder and port, so the pool and the dispatcher reconnect by themselves. If it cannot be started within
 * RESTART_WITHIN_MS, `onGiveUp` runs: the server then exits non-zero for its supervisor to restart it.
 */
export function superviseEmbeddedPostgres(
  first: RunningPostgres,
  restart: () => Promise<RunningPostgres>,
  options: { log: Logger; onGiveUp: () => void },
): SupervisedPostgres {
  let current = first;
  let stopping = false;
  let healthy = true;
  let recovering: Promise<void> = Promise.resolve();

  const recover = async (how: string): Promise<void> => {
    options.log.error('embedded PostgreSQL stopped unexpectedly; restarting it', { how, port: current.port });
    const deadline = Date.now() + RESTART_WITHIN_MS;
    let wait = FIRST_RETRY_MS;
    for (let attempt = 1; !stopping; attempt += 1) {
      try {
        current = await restart();
        options.log.warn('embedded PostgreSQL restarted', { attempt });
        watch();
        return;
      } catch (error) {
        // Backends of the killed cluster may still hold its shared memory for a moment: that start fails, the next works.
        const reason = error instanceof Error ? error.message : String(error);
        if (Date.now() + wait > deadline) {
          healthy = false;
          options.log.error(
            'embedded PostgreSQL could not be restarted; exiting so that a supervisor restarts the server',
            { attempt, reason },
          );
          options.onGiveUp();
          return;
        }
        options.log.warn('embedded PostgreSQL did not start again yet; retrying', { attempt, reason, retryInMs: wait });
      }
      await new Promise((resolve) => setTimeout(resolve, wait));
      wait = Math.min(wait * 2, LONGEST_RETRY_MS);
    }
  };

  function watch(): void {
    const watched = current;
    void watched.lost.then((how) => {
      if (stopping || watched !== current) return;
      recovering = recover(how);
    });
  }
  watch();

  return {
    healthy: () => healthy,
    async stop() {
      stopping = true;
      await recovering;
      await current.stop();
    },
  };
}
