import { SESSION_ABSOLUTE_MS, SESSION_IDLE_MS } from '../auth/sessions';
import { FAILURE_WINDOW_MS } from '../auth/signInThrottle';
import { type Executor, queryOne } from '../db/query';
import { sql } from '../db/sql';
import type { Logger } from '../logger';
import { type PeriodicJob, startPeriodic } from './periodic';

const EVERY_MS = 10 * 60_000;

/** Deletes what can no longer be used: ended sessions, spent or expired links, old sign-in failures. */
export async function purgeStaffLeftovers(db: Executor, now: Date): Promise<number> {
  const row = await queryOne<{ count: number }>(
    db,
    sql`WITH sessions AS (
          DELETE FROM staff_sessions
          WHERE last_seen_at < ${new Date(now.getTime() - SESSION_IDLE_MS)} OR created_at < ${new Date(now.getTime() - SESSION_ABSOLUTE_MS)}
          RETURNING 1),
        links AS (DELETE FROM staff_links WHERE used_at IS NOT NULL OR expires_at <= ${now} RETURNING 1),
        failures AS (DELETE FROM signin_failures WHERE at < ${new Date(now.getTime() - FAILURE_WINDOW_MS)} RETURNING 1)
        SELECT (SELECT count(*) FROM sessions) + (SELECT count(*) FROM links) + (SELECT count(*) FROM failures) AS count`,
  );
  return Number(row?.count ?? 0);
}

/** Every 10 minutes, off the request path; safe in every instance. */
export function startStaffPurge(db: Executor, log: Logger): PeriodicJob {
  return startPeriodic('staff purge', EVERY_MS, log, async () => {
    const purged = await purgeStaffLeftovers(db, new Date());
    if (purged > 0) log.info('purged ended sessions and spent links', { purged });
  });
}
