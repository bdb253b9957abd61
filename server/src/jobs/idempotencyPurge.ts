import type { Sequelize } from 'sequelize';
import { purgeExpired } from '../idempotency/store';
import type { Logger } from '../logger';

const EVERY_MS = 10 * 60_000;

/** Deletes idempotency records past retention in small batches, off the request path; safe in every instance. */
export function startIdempotencyPurge(sequelize: Sequelize, ttlHours: number, log: Logger): { stop(): Promise<void> } {
  let running: Promise<void> = Promise.resolve();
  const tick = () => {
    running = (async () => {
      const before = new Date(Date.now() - ttlHours * 3_600_000);
      let purged = 0;
      for (let batch = await purgeExpired({ sequelize }, before); batch > 0; batch = await purgeExpired({ sequelize }, before)) {
        purged += batch;
      }
      if (purged > 0) log.info('purged expired idempotency keys', { purged });
    })().catch((error: unknown) => log.warn('idempotency purge failed', { error: String(error) }));
  };
  const timer = setInterval(tick, EVERY_MS);
  timer.unref();
  tick();
  return {
    async stop() {
      clearInterval(timer);
      await running;
    },
  };
}
