import type { Executor } from '../db/query';
import { keysSince } from '../idempotency/key';
import { purgeExpired } from '../idempotency/store';
import type { Logger } from '../logger';
import { purgeVisitAddresses } from '../rateLimit/visitCheckinLimit';
import { type PeriodicJob, startPeriodic } from './periodic';

const EVERY_MS = 10 * 60_000;

/**
 * Deletes idempotency records past retention in small batches, off the request path, and the client
 * addresses phone check-ins were counted by once their hour is over; safe in every instance.
 */
export function startIdempotencyPurge(db: Executor, ttlHours: number, log: Logger): PeriodicJob {
  return startPeriodic('idempotency purge', EVERY_MS, log, async (signal) => {
    const before = keysSince(new Date(), ttlHours);
    let purged = 0;
    while (!signal.aborted) {
      const batch = await purgeExpired(db, before);
      purged += batch;
      if (batch === 0) break;
    }
    if (purged > 0) log.info('purged expired idempotency keys', { purged });
    if (!signal.aborted) await purgeVisitAddresses(db, new Date());
  });
}
