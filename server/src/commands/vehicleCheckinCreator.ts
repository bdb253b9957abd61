import { initialVehicleStatus, normalizePlate, resolveOccurredAt, vehicleStatusEvent } from '../../../shared/src/domain';
import type { CreateVehicleCheckinRequest, VehicleCheckin } from '../../../shared/src/schemas/vehicles';
import type { Principal, SiteAccess } from '../auth/principal';
import { type Executor, prepared, queryOne } from '../db/query';
import { type VehicleCheckinRow, findOpenVehicleCheckin } from '../db/vehicleCheckinRows';
import { conflict, problem, validationFailed } from '../errors/problem';
import { outboxEvent, outboxInsertCte } from '../outbox/events';
import { presentVehicleCheckin } from '../presenters/vehicleCheckin';

interface Precheck {
  id: number;
  vehicle_id: number | null;
  license_plate: string | null;
  plate_norm: string | null;
  blocked: boolean;
}

// One round trip for what the insert depends on: a new id, and the registered vehicle (by id, or by the
// normalized plate) with whether one of its labels blocks entry.
const precheckSql = (by: 'id' | 'plate_norm') => prepared(`
  SELECT nextval(pg_get_serial_sequence('vehicle_checkins', 'id')) AS id,
    v.id AS vehicle_id, v.license_plate, v.plate_norm,
    EXISTS (SELECT 1 FROM vehicle_label_assignments a
            JOIN vehicle_labels l ON l.account_id = a.account_id AND l.id = a.label_id
            WHERE a.account_id = v.account_id AND a.vehicle_id = v.id AND l.blocks_entry) AS blocked
  FROM (SELECT 1) AS one
  LEFT JOIN vehicles v ON v.account_id = $1 AND v.deleted_at IS NULL AND v.${by} = $2`);
const PRECHECK = { id: precheckSql('id'), plate_norm: precheckSql('plate_norm') };

// The visit and its event in one statement. A second open visit of the plate at the site is refused by the
// unique index: DO NOTHING keeps the transaction usable (for the stored 409) and then no event is written.
const INSERT = prepared(`
  WITH checkin AS (
    INSERT INTO vehicle_checkins (account_id, id, site_id, vehicle_id, license_plate, plate_norm, status, driver_name,
      notes, entry_source, entry_at, last_event_at, created_at, updated_at)
    VALUES ($1, $4, $2, $5, $6, $7, $8, $9, $10, $11, $12, $12, $3, $3)
    ON CONFLICT (account_id, site_id, plate_norm) WHERE status IN ('IN', 'PENDING') DO NOTHING
    RETURNING id),
  ${outboxInsertCte({ account: 1, site: 2, at: 3, events: 13 }, 'EXISTS (SELECT 1 FROM checkin)')}
  SELECT count(*)::int AS inserted FROM checkin`);

// The open visit that refused the insert may leave before it is read; then the insert is simply tried again.
const ATTEMPTS = 3;

/**
 * Records a vehicle arriving at a site: a registered vehicle is IN (STOP when a label of it blocks entry),
 * an unknown plate is PENDING for a guard to approve. One open visit per plate per site: else 409 with it.
 */
export async function createVehicleCheckin(
  db: Executor,
  input: { principal: Principal; site: SiteAccess; request: CreateVehicleCheckinRequest; now: Date },
): Promise<VehicleCheckin> {
  const { principal, site, request, now } = input;
  const time = resolveOccurredAt(request.occurredAt ? new Date(request.occurredAt) : undefined, now);
  if (!time.ok) throw problem('OCCURRED_AT_OUT_OF_RANGE', time.message);
  const sentNorm = request.licensePlate === undefined ? undefined : normalizePlate(request.licensePlate);
  const pre = await queryOne<Precheck>(db, PRECHECK[sentNorm === undefined ? 'id' : 'plate_norm'], [
    principal.accountId,
    sentNorm ?? request.vehicleId,
  ]);
  if (!pre) throw new Error('precheck returned nothing');
  // By plate, the visit keeps the plate as the gate sent it; by vehicleId, the vehicle's registered plate.
  const licensePlate = request.licensePlate ?? pre.license_plate;
  const plateNorm = sentNorm ?? pre.plate_norm;
  if (licensePlate === null || plateNorm === null) throw validationFailed([{ path: 'vehicleId', message: 'Unknown vehicle id' }]);
  const status = initialVehicleStatus({ registered: pre.vehicle_id !== null, blocked: pre.blocked });
  const row: VehicleCheckinRow = {
    account_id: principal.accountId,
    id: pre.id,
    site_id: site.siteId,
    vehicle_id: pre.vehicle_id,
    license_plate: licensePlate,
    plate_norm: plateNorm,
    status,
    driver_name: request.driverName || null,
    notes: request.notes || null,
    entry_source: principal.channel,
    entry_at: time.at,
    exit_source: null,
    exit_at: null,
    last_event_at: time.at,
    deny_reason: null,
    created_at: now,
    updated_at: now,
  };
  const checkin = presentVehicleCheckin(row);
  const events = [outboxEvent({ type: vehicleStatusEvent(status), accountId: row.account_id, siteId: row.site_id, now, data: { checkin } })];
  const bind = [
    row.account_id, row.site_id, now, row.id, row.vehicle_id, row.license_plate, row.plate_norm, row.status,
    row.driver_name, row.notes, row.entry_source, row.entry_at, JSON.stringify(events),
  ];
  for (let attempt = 0; attempt < ATTEMPTS; attempt += 1) {
    const written = await queryOne<{ inserted: number }>(db, INSERT, bind);
    if (written?.inserted === 1) return checkin;
    const open = await findOpenVehicleCheckin(db, { accountId: row.account_id, siteId: row.site_id, plateNorm: row.plate_norm });
    if (open) {
      throw conflict('VEHICLE_ALREADY_ON_SITE', `License plate ${open.license_plate} is already on site ${row.site_id} (check-in ${open.id}).`, presentVehicleCheckin(open));
    }
  }
  throw new Error('vehicle check-in neither inserted nor in conflict');
}
