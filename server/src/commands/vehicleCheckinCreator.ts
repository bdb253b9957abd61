import { decideVehicleEntry, normalizePlate, vehicleStatusEvent } from '../../../shared/src/domain';
import type { CreateVehicleCheckinRequest, VehicleCheckin } from '../../../shared/src/schemas/vehicles';
import type { Principal, SiteAccess } from '../auth/principal';
import { type Executor, queryOne } from '../db/query';
import { sql } from '../db/sql';
import type { WriteStatement } from '../reply';
import { type VehicleCheckinRow, findOpenVehicleCheckin } from '../queries/vehicleCheckinRows';
import { arrivingVisit, decidedByParam } from '../queries/visitRows';
import { arrivalTime, settledArrival, visitEvents } from './visitChange';
import { deciderOf } from '../auth/decider';
import { conflict, validationFailed } from '../errors/problem';
import { type OutboxEvent, outboxInsertCte } from '../outbox/events';
import { presentVehicleCheckin } from '../presenters/vehicleCheckin';
import { refuseIfArchived } from '../policies/archivedSite';

interface Precheck {
  id: number;
  vehicle_id: number | null;
  license_plate: string | null;
  plate_norm: string | null;
  blocking_label_names: string[];
  open_id: number | null;
}

// One round trip for what the insert depends on: a new id, the registered vehicle (by id, or by the
// normalized plate) with the names of its labels that block entry, and the plate's open visit at the site.
const precheck = (input: { accountId: number; siteId: number; by: { plateNorm: string } | { vehicleId: number } }) => {
  const { accountId, siteId, by } = input;
  const plate = 'plateNorm' in by ? sql`${by.plateNorm}` : sql`v.plate_norm`;
  const vehicle = 'plateNorm' in by ? sql`v.plate_norm = ${by.plateNorm}` : sql`v.id = ${by.vehicleId}`;
  return sql`
  SELECT nextval(pg_get_serial_sequence('vehicle_checkins', 'id')) AS id,
    v.id AS vehicle_id, v.license_plate, v.plate_norm,
    ARRAY(SELECT l.name FROM vehicle_label_assignments a
          JOIN vehicle_labels l ON l.account_id = a.account_id AND l.id = a.label_id
          WHERE a.account_id = v.account_id AND a.vehicle_id = v.id AND l.blocks_entry) AS blocking_label_names,
    (SELECT c.id FROM vehicle_checkins c
     WHERE c.account_id = ${accountId} AND c.site_id = ${siteId} AND c.plate_norm = ${plate}
       AND c.status IN ('IN', 'PENDING')) AS open_id
  FROM (SELECT 1) AS one
  LEFT JOIN vehicles v ON v.account_id = ${accountId} AND v.deleted_at IS NULL AND ${vehicle}`;
};

const CREATED = sql`EXISTS (SELECT 1 FROM checkin)`;

/**
 * The visit as one statement: the key's claim, the visit and its event, the audit row. A second open visit
 * of the plate at the site is refused by the unique index (DO NOTHING): then nothing is written, the write
 * did not apply (not CREATED), and the runner decides again, when the precheck finds the visit that got
 * there first (409). So is a visit of a registered vehicle that was deleted, or given another plate, since
 * the precheck: the vehicle row is share-locked (a delete or a plate change waits for this visit, or this
 * visit sees it and the runner decides again: 422 unknown vehicle, or the new plate).
 */
const insertStatement =
  (row: VehicleCheckinRow, now: Date, events: OutboxEvent[]): WriteStatement =>
  (parts) => sql`
  WITH ${parts.claim},
  checkin AS (
    INSERT INTO vehicle_checkins (account_id, id, site_id, vehicle_id, license_plate, plate_norm, status, driver_name,
      notes, entry_source, entry_at, last_event_at, stop_reason, decided_by, decided_at, stop_source, stopped_at, created_at, updated_at)
    SELECT ${row.account_id}::integer, ${row.id}::bigint, ${row.site_id}::integer, ${row.vehicle_id}::bigint,
      ${row.license_plate}, ${row.plate_norm}, ${row.status}, ${row.driver_name}, ${row.notes}, ${row.entry_source},
      ${row.entry_at}::timestamptz, ${row.entry_at}::timestamptz, ${row.stop_reason},
      ${decidedByParam(row)}::jsonb, ${row.decided_at}::timestamptz, ${row.stop_source}, ${row.stopped_at}::timestamptz,
      ${now}::timestamptz, ${now}::timestamptz
    WHERE ${parts.claimed} AND (${row.vehicle_id}::bigint IS NULL OR EXISTS (
      SELECT 1 FROM vehicles v
      WHERE v.account_id = ${row.account_id} AND v.id = ${row.vehicle_id}::bigint AND v.deleted_at IS NULL
        AND v.plate_norm = ${row.plate_norm}
      FOR SHARE))
    ON CONFLICT (account_id, site_id, plate_norm) WHERE status IN ('IN', 'PENDING') DO NOTHING
    RETURNING id),
  ${outboxInsertCte({ accountId: row.account_id, siteId: row.site_id, at: now, events }, CREATED)},
  ${parts.audit(CREATED)}
  SELECT ${parts.outcome(CREATED)}`;

/**
 * Plans a vehicle arriving at a site: a registered vehicle is IN (STOP when a label of it blocks entry),
 * an unknown plate is PENDING for a guard to approve. One open visit per plate per site: else 409 with it.
 * Reads only; the returned write (the visit and its event) runs as one statement with the key's record.
 */
export async function createVehicleCheckin(
  db: Executor,
  input: { principal: Principal; site: SiteAccess; request: CreateVehicleCheckinRequest; now: Date },
): Promise<{ checkin: VehicleCheckin; write: WriteStatement }> {
  const { principal, site, request, now } = input;
  refuseIfArchived(site);
  const arrivedAt = arrivalTime(request.occurredAt, now);
  const sentNorm = request.licensePlate === undefined ? undefined : normalizePlate(request.licensePlate);
  const by = sentNorm === undefined ? { vehicleId: request.vehicleId ?? 0 } : { plateNorm: sentNorm };
  const pre = await queryOne<Precheck>(db, precheck({ accountId: principal.accountId, siteId: site.siteId, by }), {
    prepare: true,
  });
  if (!pre) throw new Error('precheck returned nothing');
  // By plate, the visit keeps the plate as the gate sent it; by vehicleId, the vehicle's registered plate.
  const licensePlate = request.licensePlate ?? pre.license_plate;
  const plateNorm = sentNorm ?? pre.plate_norm;
  if (licensePlate === null || plateNorm === null)
    throw validationFailed([{ path: 'vehicleId', message: 'Unknown vehicle id' }]);
  if (pre.open_id !== null) {
    const open = await findOpenVehicleCheckin(db, { accountId: principal.accountId, siteId: site.siteId, plateNorm });
    // It may have left between the two reads: then the write decides.
    if (open) {
      throw conflict(
        'VEHICLE_ALREADY_ON_SITE',
        `License plate ${open.license_plate} is already on site ${site.siteId} (check-in ${open.id}).`,
        presentVehicleCheckin(open),
      );
    }
  }
  const { status, stopReason } = decideVehicleEntry({
    registered: pre.vehicle_id !== null,
    blockingLabelNames: pre.blocking_label_names,
  });
  const row: VehicleCheckinRow = arrivingVisit(
    { accountId: principal.accountId, id: pre.id, siteId: site.siteId, source: principal.source, at: arrivedAt, now },
    {
      vehicle_id: pre.vehicle_id,
      license_plate: licensePlate,
      plate_norm: plateNorm,
      status,
      driver_name: request.driverName || null,
      notes: request.notes || null,
      stop_reason: stopReason,
    },
  );
  settledArrival(row, 'label', deciderOf(principal), now);
  const checkin = presentVehicleCheckin(row);
  return { checkin, write: insertStatement(row, now, visitEvents(row, [vehicleStatusEvent(status)], checkin)) };
}
