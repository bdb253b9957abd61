import { type VehicleEvent, deniedStopReason, transitionVehicle } from '../../../shared/src/domain';
import { kioskMaySee } from '../policies/kioskWindow';
import type { Source } from '../../../shared/src/schemas/common';
import type { VehicleCheckin } from '../../../shared/src/schemas/vehicles';
import type { Executor } from '../db/query';
import { type Sql, sql } from '../db/sql';
import { type VehicleCheckinKey, type VehicleCheckinRow, readVehicleCheckinForChange } from '../db/vehicleCheckinRows';
import { type Decider, changeStamp, decidedByParam } from '../db/visitRows';
import { stopAndDecision } from './decisions';
import { notFound, transitionRefused } from '../errors/problem';
import type { GuardedWrite } from '../reply';
import { type OutboxEvent, outboxEvent, outboxInsertCte } from '../outbox/events';
import { presentVehicleCheckin } from '../presenters/vehicleCheckin';

const CHANGED = sql`EXISTS (SELECT 1 FROM checkin)`;

/** The whole change as guarded CTEs: the visit (only the version that was read) and its outbox events. */
const changeCtes = (next: VehicleCheckinRow, version: string, events: OutboxEvent[]) => (guard: Sql) => sql`
  checkin AS (
    UPDATE vehicle_checkins
    SET status = ${next.status}, last_event_at = ${next.last_event_at}, exit_source = ${next.exit_source},
        exit_at = ${next.exit_at}, deny_reason = ${next.deny_reason}, stop_reason = ${next.stop_reason},
        decided_by = ${decidedByParam(next)}::jsonb, decided_at = ${next.decided_at}::timestamptz, stop_source = ${next.stop_source},
        stopped_at = ${next.stopped_at}::timestamptz, updated_at = ${next.updated_at}
    WHERE account_id = ${next.account_id} AND id = ${next.id} AND xmin = ${version}::text::xid AND ${guard}
    RETURNING 1),
  ${outboxInsertCte({ accountId: next.account_id, siteId: next.site_id, at: next.updated_at, events }, CHANGED)}`;

export interface VehicleAction {
  event: VehicleEvent;
  /** For checkout: where the vehicle left through (defaults to the caller's channel). */
  exitSource?: Source;
  /** For deny: why. */
  denyReason?: string;
}

/**
 * Plans one state change of a vehicle check-in: the shared state machine decides on the row as read, and
 * the result, with its events, is one write that applies only to that version of the row (the runner runs
 * the plan again if it changed meanwhile). Conflicts are 409 with the check-in as `current`.
 */
export async function transitionVehicleCheckin(
  db: Executor,
  input: {
    key: VehicleCheckinKey;
    action: VehicleAction;
    exitSource: Source;
    decider: Decider;
    now: Date;
    /** A kiosk's window (policies/kioskWindow.ts): a visit outside it does not exist for the kiosk. */
    kioskSince?: Date;
  },
): Promise<{ checkin: VehicleCheckin; write: GuardedWrite }> {
  const { key, action } = input;
  const read = await readVehicleCheckinForChange(db, key);
  const hidden =
    read && input.kioskSince && !kioskMaySee('vehicle', read.row.status, read.row.last_event_at, input.kioskSince);
  if (!read || hidden) throw notFound(`Vehicle check-in ${key.checkinId} does not exist on site ${key.siteId}.`);
  const { row, version } = read;
  // The stamp of the change (updatedAt, the events' createdAt); the state machine judges times by the clock.
  const now = changeStamp(input.now, row.updated_at);
  const result = transitionVehicle({ status: row.status, lastEventAt: row.last_event_at }, action.event, input.now);
  if (!result.ok) throw transitionRefused(result, `Vehicle check-in ${row.id}`, presentVehicleCheckin(row));
  const next: VehicleCheckinRow = {
    ...row,
    status: result.state.status,
    last_event_at: result.state.lastEventAt,
    deny_reason: action.denyReason ?? row.deny_reason,
    // A deny stops the vehicle: the guard's reason, or "Refused".
    stop_reason: action.event.type === 'DENY' ? deniedStopReason(action.denyReason) : row.stop_reason,
    updated_at: now,
  };
  Object.assign(next, stopAndDecision(next, action.event.type, input.decider, now));
  const emitted: string[] = [];
  for (const effect of result.effects) {
    if (effect.type === 'SET_EXIT') {
      next.exit_at = effect.at;
      next.exit_source = action.exitSource ?? input.exitSource;
    } else {
      emitted.push(effect.event);
    }
  }
  const checkin = presentVehicleCheckin(next);
  const events = emitted.map((type) =>
    outboxEvent({ type, accountId: row.account_id, siteId: row.site_id, now, data: { checkin } }),
  );
  return { checkin, write: { ctes: changeCtes(next, version, events), applied: CHANGED } };
}
