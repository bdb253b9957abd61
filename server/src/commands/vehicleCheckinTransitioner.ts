import { type Decider, type VehicleEvent, deniedStopReason, transitionVehicle } from '../../../shared/src/domain';
import { kioskMaySee } from '../policies/kioskWindow';
import type { Source } from '../../../shared/src/schemas/common';
import type { VehicleCheckin } from '../../../shared/src/schemas/vehicles';
import type { Executor } from '../db/query';
import { sql } from '../db/sql';
import {
  type VehicleCheckinKey,
  type VehicleCheckinRow,
  readVehicleCheckinForChange,
} from '../queries/vehicleCheckinRows';
import { decidedByParam } from '../queries/visitRows';
import { changedVisit, visitEvents } from './visitChange';
import { vehicleVisits } from '../queries/visitKinds';
import { notFound, transitionRefused } from '../errors/problem';
import type { WriteStatement } from '../reply';
import { type OutboxEvent, outboxInsertCte } from '../outbox/events';
import { presentVehicleCheckin } from '../presenters/vehicleCheckin';

const CHANGED = sql`EXISTS (SELECT 1 FROM checkin)`;

/**
 * The whole change as one statement: the key's claim; the visit, only the version that was read; its outbox
 * events, only when that update applied; the audit row.
 */
const changeStatement =
  (next: VehicleCheckinRow, version: string, events: OutboxEvent[]): WriteStatement =>
  (parts) => sql`
  WITH ${parts.claim},
  checkin AS (
    UPDATE vehicle_checkins
    SET status = ${next.status}, last_event_at = ${next.last_event_at}, exit_source = ${next.exit_source},
        exit_at = ${next.exit_at}, deny_reason = ${next.deny_reason}, stop_reason = ${next.stop_reason},
        decided_by = ${decidedByParam(next)}::jsonb, decided_at = ${next.decided_at}::timestamptz, stop_source = ${next.stop_source},
        stopped_at = ${next.stopped_at}::timestamptz, updated_at = ${next.updated_at}
    WHERE account_id = ${next.account_id} AND id = ${next.id} AND xmin = ${version}::text::xid AND ${parts.claimed}
    RETURNING 1),
  ${outboxInsertCte({ accountId: next.account_id, siteId: next.site_id, at: next.updated_at, events }, CHANGED)},
  ${parts.audit(CHANGED)}
  SELECT ${parts.outcome(CHANGED)}`;

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
): Promise<{ checkin: VehicleCheckin; write: WriteStatement }> {
  const { key, action } = input;
  const read = await readVehicleCheckinForChange(db, key);
  const hidden =
    read && input.kioskSince && !kioskMaySee('vehicle', read.row.status, read.row.last_event_at, input.kioskSince);
  if (!read || hidden) throw notFound(`${vehicleVisits.noun} ${key.checkinId} does not exist on site ${key.siteId}.`);
  const { row, version } = read;
  const result = transitionVehicle({ status: row.status, lastEventAt: row.last_event_at }, action.event, input.now);
  if (!result.ok) throw transitionRefused(result, `${vehicleVisits.noun} ${row.id}`, presentVehicleCheckin(row));
  // Vehicles have no effects of their own (no breaks).
  const { next, emitted } = changedVisit(row, result, {
    event: action.event.type,
    denyReason: action.denyReason,
    // A deny stops the vehicle: the guard's reason, or "Refused".
    deniedStopReason: deniedStopReason(action.denyReason),
    exitSource: action.exitSource ?? input.exitSource,
    decider: input.decider,
    now: input.now,
  });
  const checkin = presentVehicleCheckin(next);
  return { checkin, write: changeStatement(next, version, visitEvents(next, emitted, checkin)) };
}
