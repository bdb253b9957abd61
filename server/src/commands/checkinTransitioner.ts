import { type PersonEvent, transitionPerson } from '../../../shared/src/domain';
import type { Source } from '../../../shared/src/schemas/common';
import type { PersonCheckin } from '../../../shared/src/schemas/personCheckins';
import { type CheckinKey, type PersonCheckinRow, readCheckinForChange } from '../db/personCheckinRows';
import { changeStamp } from '../db/visitRows';
import type { Executor } from '../db/query';
import { notFound, transitionRefused } from '../errors/problem';
import type { GuardedWrite } from '../idempotency/store';
import { type OutboxEvent, outboxEvent, outboxInsertCte } from '../outbox/events';
import { presentPersonCheckin } from '../presenters/personCheckin';

/**
 * The whole change as guarded CTEs: the check-in (only the version that was read), a break opened or
 * closed, and the outbox events, each only when the check-in's update applied. $13 is the version read.
 */
const changeCtes = (guard: string) => `
  checkin AS (
    UPDATE person_checkins
    SET status = $4, last_event_at = $5, exit_source = $6, exit_at = $7, deny_reason = $8, updated_at = $3
    WHERE account_id = $1 AND id = $9 AND xmin = $13::text::xid AND ${guard}
    RETURNING 1),
  opened AS (
    INSERT INTO person_breaks (account_id, id, checkin_id, started_at)
    SELECT $1, $10, $9, $11 WHERE $10::bigint IS NOT NULL AND EXISTS (SELECT 1 FROM checkin)),
  closed AS (
    UPDATE person_breaks SET ended_at = $12
    WHERE $12::timestamptz IS NOT NULL AND account_id = $1 AND checkin_id = $9 AND ended_at IS NULL
      AND EXISTS (SELECT 1 FROM checkin)),
  ${outboxInsertCte({ account: 1, site: 2, at: 3, events: 14 }, 'EXISTS (SELECT 1 FROM checkin)')}`;

export interface PersonAction {
  event: PersonEvent;
  /** For checkout: where the person left through (defaults to the caller's channel). */
  exitSource?: Source;
  /** For deny: why. */
  denyReason?: string;
}

/**
 * Plans one state change of a check-in: the shared state machine decides on the row as read, and the
 * result, with its events, is one write that applies only to that version of the row (the runner runs
 * the plan again if the row changed meanwhile). Conflicts are 409 with the check-in as `current`.
 */
export async function transitionPersonCheckin(
  db: Executor,
  input: { key: CheckinKey; action: PersonAction; exitSource: Source; now: Date },
): Promise<{ checkin: PersonCheckin; write: GuardedWrite }> {
  const { key, action } = input;
  const read = await readCheckinForChange(db, key);
  if (!read) throw notFound(`Check-in ${key.checkinId} does not exist on site ${key.siteId}.`);
  const { row, version, nextBreakId } = read;
  // The stamp of the change (updatedAt, the events' createdAt); the state machine judges times by the clock.
  const now = changeStamp(input.now, row.updated_at);
  const result = transitionPerson({ status: row.status, lastEventAt: row.last_event_at }, action.event, input.now);
  if (!result.ok) throw transitionRefused(result, `Check-in ${row.id}`, presentPersonCheckin(row));
  const next: PersonCheckinRow = {
    ...row,
    status: result.state.status,
    last_event_at: result.state.lastEventAt,
    deny_reason: action.denyReason ?? row.deny_reason,
    updated_at: now,
    breaks: [...row.breaks],
  };
  let openedAt: Date | null = null;
  let closedAt: Date | null = null;
  const emitted: string[] = [];
  for (const effect of result.effects) {
    if (effect.type === 'OPEN_BREAK') {
      openedAt = effect.at;
      next.breaks.push({ id: nextBreakId, startedAt: effect.at, endedAt: null });
    } else if (effect.type === 'CLOSE_BREAK') {
      closedAt = effect.at;
      next.breaks = next.breaks.map((item) => (item.endedAt === null ? { ...item, endedAt: effect.at } : item));
    } else if (effect.type === 'SET_EXIT') {
      next.exit_at = effect.at;
      next.exit_source = action.exitSource ?? input.exitSource;
    } else {
      emitted.push(effect.event);
    }
  }
  const checkin = presentPersonCheckin(next);
  const events: OutboxEvent[] = emitted.map((type) =>
    outboxEvent({ type, accountId: row.account_id, siteId: row.site_id, now, data: { checkin } }),
  );
  const bind = [
    row.account_id, row.site_id, now, next.status, next.last_event_at, next.exit_source, next.exit_at,
    next.deny_reason, row.id, openedAt ? nextBreakId : null, openedAt, closedAt, version, JSON.stringify(events),
  ];
  return { checkin, write: { ctes: changeCtes, bind, applied: 'EXISTS (SELECT 1 FROM checkin)' } };
}
