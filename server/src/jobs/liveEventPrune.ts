import { type Executor, queryOne } from '../db/query';
import { sql } from '../db/sql';
import type { Logger } from '../logger';
import { type PeriodicJob, startPeriodic } from './periodic';

const EVERY_MS = 5 * 60_000;
const BATCH = 5_000;

/**
 * Deletes one batch of the oldest events: of the first BATCH in position order, those before the first one
 * not older than `before` (positions follow time only roughly; stopping there keeps what is left a suffix of
 * the order). The horizon moves to the last one deleted in the same statement, so a client resuming from
 * below it is told to read afresh, never given a replay with a hole. Answers how many it deleted.
 */
export async function pruneLiveEvents(db: Executor, before: Date): Promise<number> {
  const row = await queryOne<{ deleted: number }>(
    db,
    sql`WITH oldest AS (
          SELECT tx_id, seq, created_at < ${before} AS old, row_number() OVER (ORDER BY tx_id, seq) AS n
          FROM (SELECT tx_id, seq, created_at FROM live_events ORDER BY tx_id, seq LIMIT ${BATCH}) o),
        cut AS (
          SELECT tx_id, seq FROM oldest
          WHERE n < COALESCE((SELECT min(n) FROM oldest WHERE NOT old), ${BATCH + 1})
          ORDER BY n DESC LIMIT 1),
        deleted AS (
          DELETE FROM live_events e USING cut WHERE (e.tx_id, e.seq) <= (cut.tx_id, cut.seq) RETURNING 1),
        horizon AS (
          UPDATE live_event_horizon h SET tx_id = cut.tx_id, seq = cut.seq
          FROM cut WHERE (h.tx_id, h.seq) < (cut.tx_id, cut.seq) RETURNING 1)
        SELECT (SELECT count(*) FROM deleted)::int AS deleted, (SELECT count(*) FROM horizon)::int AS moved`,
  );
  return row?.deleted ?? 0;
}

/** Prunes events older than `retentionMinutes` every five minutes, in every instance (they may run at once). */
export function startLiveEventPrune(db: Executor, retentionMinutes: number, log: Logger): PeriodicJob {
  return startPeriodic('event stream prune', EVERY_MS, log, async (signal) => {
    const before = new Date(Date.now() - retentionMinutes * 60_000);
    let pruned = 0;
    while (!signal.aborted) {
      const batch = await pruneLiveEvents(db, before);
      pruned += batch;
      if (batch < BATCH) break;
    }
    if (pruned > 0) log.info('pruned old stream events', { pruned });
  });
}
