import { type PersonEvent, transitionPerson } from '../../../shared/src/domain';
import { kioskMaySee } from '../policies/kioskWindow';
import type { Source } from '../../../shared/src/schemas/common';
import type { PersonCheckin } from '../../../shared/src/schemas/personCheckins';
import { type CheckinKey, type PersonCheckinRow, readCheckinForChange } from '../db/personCheckinRows';
import { type Decider, changeStamp, decidedByParam } from '../db/visitRows';
import { stopAndDecision } from './decisions';
import type { Executor } from '../db/query';
import { type Sql, sql } from '../db/sql';
import { notFound, transitionRefused } from '../errors/problem';
import type { GuardedWrite } from '../reply';
import { type OutboxEvent, outboxEvent, outboxInsertCte } from '../outbox/events';
import { presentPersonCheckin } from '../presenters/personCheckin';
import { hostNotificationsCte } from '../notifications/enqueue';

const CHANGED = sql`EXISTS (SELECT 1 FROM checkin)`;

/**
 * The whole change as guarded CTEs: the check-in (only the version that was read), a break opened or
 * closed, and the outbox events, each only when the check-in's update applied.
 */
const changeCtes =
  (change: {
    next: PersonCheckinRow;
    version: string;
    openedBreak: { id: number; at: Date } | null;
    closedAt: Date | null;
    events: OutboxEvent[];
    notify: Sql;
  }) =>
  (guard: Sql) => {
    const { next, version, openedBreak, closedAt, events, notify } = change;
    const account = sql`${next.account_id}::integer`;
    const id = sql`${next.id}::bigint`;
    return sql`
  checkin AS (
    UPDATE person_checkins
    SET status = ${next.status}, last_event_at = ${next.last_event_at}, exit_source = ${next.exit_source},
        exit_at = ${next.exit_at}, deny_reason = ${next.deny_reason}, decided_by = ${decidedByParam(next)}::jsonb,
        decided_at = ${next.decided_at}::timestamptz, stop_reason = ${next.stop_reason}, stop_source = ${next.stop_source},
        stopped_at = ${next.stopped_at}::timestamptz, updated_at = ${next.updated_at}
    WHERE account_id = ${account} AND id = ${id} AND xmin = ${version}::text::xid AND ${guard}
    RETURNING 1),
  opened AS (
    INSERT INTO person_breaks (account_id, id, checkin_id, started_at)
    SELECT ${account}, ${openedBreak?.id ?? null}::bigint, ${id}, ${openedBreak?.at ?? null}::timestamptz
    WHERE ${openedBreak !== null} AND ${CHANGED}),
  closed AS (
    UPDATE person_breaks SET ended_at = ${closedAt}::timestamptz
    WHERE ${closedAt !== null} AND account_id = ${account} AND checkin_id = ${id} AND ended_at IS NULL AND ${CHANGED}),
  ${outboxInsertCte({ accountId: next.account_id, siteId: next.site_id, at: next.updated_at, events }, CHANGED)}${notify}`;
  };

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
  input: {
    key: CheckinKey;
    action: PersonAction;
    exitSource: Source;
    decider: Decider;
    now: Date;
    /** A kiosk's window (policies/kioskWindow.ts): a visit outside it does not exist for the kiosk. */
    kioskSince?: Date;
  },
): Promise<{ checkin: PersonCheckin; write: GuardedWrite }> {
  const { key, action } = input;
  const read = await readCheckinForChange(db, key);
  const hidden =
    read && input.kioskSince && !kioskMaySee('person', read.row.status, read.row.last_event_at, input.kioskSince);
  if (!read || hidden) throw notFound(`Check-in ${key.checkinId} does not exist on site ${key.siteId}.`);
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
    stop_reason: action.event.type === 'DENY' ? (action.denyReason ?? null) : row.stop_reason,
    updated_at: now,
    breaks: [...row.breaks],
  };
  Object.assign(next, stopAndDecision(next, action.event.type, input.decider, now));
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
  const openedBreak = openedAt ? { id: nextBreakId, at: openedAt } : null;
  // An approval is the visitor's arrival: their host is told (docs/notifications.md).
  const notify = hostNotificationsCte(
    { row: next, webhookEvent: emitted[0] ?? null, at: result.state.lastEventAt, now },
    CHANGED,
  );
  const write = { ctes: changeCtes({ next, version, openedBreak, closedAt, events, notify }), applied: CHANGED };
  return { checkin, write };
}
