import type { Executor } from '../db/query';
import type { Logger } from '../logger';
import { pruneSubscriptionSpells, purgeDeletedSubscriptionLogs, purgeWebhookLog } from '../webhooks/logRetention';
import { type PeriodicJob, startPeriodic } from './periodic';

const EVERY_MS = 10 * 60_000;

/**
 * Every 10 minutes: deletes the delivery logs of deleted subscriptions, then webhook events and finished
 * deliveries older than the retention, and the subscriptions' enabled spells that ended before it; safe in
 * every instance.
 */
export function startWebhookLogPurge(db: Executor, retentionDays: number, log: Logger): PeriodicJob {
  return startPeriodic('webhook log purge', EVERY_MS, log, async (signal) => {
    const orphaned = await purgeDeletedSubscriptionLogs(db, { signal });
    if (orphaned > 0) log.info('deleted the delivery logs of deleted webhook subscriptions', { deliveries: orphaned });
    const cutoff = new Date(Date.now() - retentionDays * 86_400_000);
    const purged = await purgeWebhookLog(db, cutoff, { signal });
    if (purged.events > 0) log.info('purged old webhook events and deliveries', { ...purged });
    if (!signal.aborted) await pruneSubscriptionSpells(db, cutoff);
  });
}
