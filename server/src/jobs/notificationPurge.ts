import type { Executor } from '../db/query';
import type { Logger } from '../logger';
import { purgeNotifications } from '../notifications/purge';
import { type PeriodicJob, startPeriodic } from './periodic';

const EVERY_MS = 10 * 60_000;

/**
 * Every 10 minutes (and at start): deletes notifications past NOTIFICATION_LOG_RETENTION_DAYS (or the
 * account's shorter retention of visits) and spent Approve/Deny links; safe in every instance.
 */
export function startNotificationPurge(db: Executor, retentionDays: number, log: Logger): PeriodicJob {
  return startPeriodic('notification purge', EVERY_MS, log, async (signal) => {
    const purged = await purgeNotifications(db, { now: new Date(), days: retentionDays, signal });
    if (purged.notifications > 0 || purged.links > 0)
      log.info('purged old notifications and spent links', { ...purged });
  });
}
