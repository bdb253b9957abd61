import { type VehicleEvent, deniedStopReason, transitionVehicle } from '../../../shared/src/domain';
import type { Source } from '../../../shared/src/schemas/common';
import type { VehicleCheckin } from '../../../shared/src/schemas/vehicles';
import type { Executor } from '../db/query';
import { type VehicleCheckinKey, type VehicleCheckinRow, readVehicleCheckinForChange } from '../db/vehicleCheckinRows';
import { changeStamp } from '../db/visitRows';
import { notFound, transitionRefused } from '../errors/problem';
import type { GuardedWrite } from '../idempotency/store';
import { outboxEvent, outboxInsertCte } from '../outbox/events';
import { presentVehicleCheckin } from '../presenters/vehicleCheckin';

/** The whole change as guarded CTEs: the visit (only the version that was read, $10) and its outbox events. */
const changeCtes = (guard: string) => `
  checkin AS (
    UPDATE vehicle_checkins
    SET status = $4, last_event_at = $5, exit_source = $6, exit_at = $7, deny_reason = $8, stop_reason = $12,
      updated_at = $3
    WHERE account_id = $1 AND id = $9 AND xmin = $10::text::xid AND ${guard}
    RETURNING 1),
  ${outboxInsertCte({ account: 1, site: 2, at: 3, events: 11 }, 'EXISTS (SELECT 1 FROM checkin)')}`;

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
  input: { key: VehicleCheckinKey; action: VehicleAction; exitSource: Source; now: Date },
): Promise<{ checkin: VehicleCheckin; write: GuardedWrite }> {
  const { key, action } = input;
  const read = await readVehicleCheckinForChange(db, key);
  if (!read) throw notFound(`Vehicle check-in ${key.checkinId} does not exist on site ${key.siteId}.`);
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
  const events = emitted.map((type) => outboxEvent({ type, accountId: row.account_id, siteId: row.site_id, now, data: { checkin } }));
  const bind = [
    row.account_id, row.site_id, now, next.status, next.last_event_at, next.exit_source, next.exit_at,
    next.deny_reason, row.id, version, JSON.stringify(events), next.stop_reason,
  ];
  return { checkin, write: { ctes: changeCtes, bind, applied: 'EXISTS (SELECT 1 FROM checkin)' } };
}
