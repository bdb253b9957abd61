import { retentionCutoff } from '../../../shared/src/domain/privacy';
import { type Executor, queryRows } from '../db/query';
import { sql } from '../db/sql';
import type { Logger } from '../logger';
import { type Anonymized, anonymizeCheckins, sweepHolders } from '../privacy/anonymization';
import { type PeriodicJob, startPeriodic } from './periodic';

const BATCH = 500;

/**
 * One pass over every account with a retention: its visits that ended (or, never ended, began) before the
 * cut-off are anonymized, `batch` per statement, each batch locked SKIP LOCKED so that instances running
 * the job at once take different rows; an anonymized row is never chosen again (docs/privacy.md).
 */
export async function anonymizeExpiredVisits(
  db: Executor,
  now: Date,
  options: { batch?: number; signal?: AbortSignal } = {},
): Promise<Anonymized> {
  const batch = options.batch ?? BATCH;
  const total: Anonymized = { checkins: 0, copies: 0 };
  const accounts = await queryRows<{ id: number; days: number }>(
    db,
    sql`SELECT id, person_data_days AS days FROM accounts WHERE person_data_days IS NOT NULL ORDER BY id`,
  );
  for (const account of accounts) {
    const cutoff = retentionCutoff(now, account.days);
    const chosen = sql`SELECT c.id FROM person_checkins c
      WHERE c.account_id = ${account.id} AND c.anonymized_at IS NULL AND coalesce(c.exit_at, c.entry_at) < ${cutoff}
      ORDER BY coalesce(c.exit_at, c.entry_at), c.id LIMIT ${batch} FOR UPDATE SKIP LOCKED`;
    let changed = 0;
    while (!options.signal?.aborted) {
      const done = await anonymizeCheckins(db, { accountId: account.id, chosen, now, sweepLater: true });
      total.checkins += done.checkins;
      total.copies += done.copies;
      changed += done.checkins;
      if (done.checkins === 0) break;
    }
    if (changed > 0) total.copies += await sweepHolders(db, account.id);
  }
  return total;
}

/** Every `everyMinutes` (RETENTION_INTERVAL_MINUTES) and once at start; safe in every instance. */
export function startPersonDataRetention(db: Executor, everyMinutes: number, log: Logger): PeriodicJob {
  return startPeriodic('person data retention', everyMinutes * 60_000, log, async (signal) => {
    const done = await anonymizeExpiredVisits(db, new Date(), { signal });
    if (done.checkins > 0) log.info('anonymized visits past their retention', { ...done });
  });
}
