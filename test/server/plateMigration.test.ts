import { describe, expect, it } from 'vitest';
import type { Vehicle, VehicleCheckin } from '../../shared/src/schemas/vehicles';
import { up } from '../../server/src/db/migrations/0009_plate_nfkc';
import { queryOne, queryRows } from '../../server/src/db/query';
import { runMigration } from '../support/migration';
import { serverAndWorld } from '../support/serverAndWorld';
import { VEHICLES, arrive, visits } from '../support/vehicles';
import { raw, sql } from '../../server/src/db/sql';

const harness = serverAndWorld();

/** How plates were compared before migration 0009 (NFC), as rows written then hold them. */
const oldNorm = (plate: string) =>
  plate
    .normalize('NFC')
    .replace(/[\s\-.·]/gu, '')
    .toUpperCase()
    .normalize('NFC');
const db = () => harness.server.database;

async function oldVehicle(licensePlate: string, deleted = false): Promise<number> {
  const row = await queryOne<{ id: number }>(
    db(),
    sql`INSERT INTO vehicles (account_id, license_plate, plate_norm, deleted_at, created_at, updated_at)
     VALUES (${harness.world.accountId}, ${licensePlate}, ${oldNorm(licensePlate)}, CASE WHEN ${deleted} THEN now() END, now(), now()) RETURNING id::int`,
  );
  return row?.id ?? 0;
}

async function oldVisit(
  siteId: number,
  licensePlate: string,
  status: 'IN' | 'OUT',
  vehicleId: number | null = null,
): Promise<number> {
  const row = await queryOne<{ id: number }>(
    db(),
    sql`INSERT INTO vehicle_checkins (account_id, site_id, vehicle_id, license_plate, plate_norm, status, entry_source, entry_at,
       exit_source, exit_at, last_event_at, created_at, updated_at)
     VALUES (${harness.world.accountId}, ${siteId}, ${vehicleId}, ${licensePlate}, ${oldNorm(licensePlate)}, ${status}, 'API', now() - interval '1 hour', CASE WHEN ${status} = 'OUT' THEN 'API' END,
       CASE WHEN ${status} = 'OUT' THEN now() END, now(), now(), now())
     RETURNING id::int`,
  );
  return row?.id ?? 0;
}

const normOf = async (table: 'vehicles' | 'vehicle_checkins', id: number) =>
  (
    await queryOne<{ plate_norm: string }>(
      db(),
      sql`SELECT plate_norm FROM ${raw(table)} WHERE account_id = ${harness.world.accountId} AND id = ${id}`,
    )
  )?.plate_norm;

/** Runs the migration as `migrate` would, and returns what it warned about. */
const migrate = () => runMigration(harness.server.database, up);

describe('migration 0009: plates compared in NFKC', () => {
  it('renormalizes full-width plates; a plate whose new form another row holds, or that is no plate, keeps its old form and is named', async () => {
    const fullWidth = await oldVehicle('ＡＢ-123');
    const clashing = await oldVehicle('ＣＤ-1');
    const holder = await oldVehicle('CD1');
    const deleted = await oldVehicle('ＥＦ-1', true);
    await oldVehicle('EF1');
    const invalid = await oldVehicle('Aﾞ1');
    const ascii = await oldVehicle('GH 1');
    const closed = await oldVisit(harness.world.siteId, 'ＧＨ-1', 'OUT');
    await oldVisit(harness.world.siteId, 'GH1', 'IN');
    const openClash = await oldVisit(harness.world.siteId, 'ＪＫ-1', 'IN');
    await oldVisit(harness.world.siteId, 'JK1', 'IN');
    const openElsewhere = await oldVisit(harness.world.otherSiteId, 'ＪＫ-1', 'IN');
    // The open visit of a vehicle that keeps its old form keeps it too.
    const clashingOnSite = await oldVisit(harness.world.siteId, 'ＣＤ-1', 'IN', clashing);

    const warnings = await migrate();

    expect(await normOf('vehicles', fullWidth)).toBe('AB123');
    expect(await normOf('vehicles', clashing)).toBe('ＣＤ1');
    expect(await normOf('vehicles', holder)).toBe('CD1');
    expect(await normOf('vehicles', deleted)).toBe('EF1');
    expect(await normOf('vehicles', invalid)).toBe(oldNorm('Aﾞ1'));
    expect(await normOf('vehicles', ascii)).toBe('GH1');
    expect(await normOf('vehicle_checkins', closed)).toBe('GH1');
    expect(await normOf('vehicle_checkins', openClash)).toBe('ＪＫ1');
    expect(await normOf('vehicle_checkins', openElsewhere)).toBe('JK1');
    expect(await normOf('vehicle_checkins', clashingOnSite)).toBe('ＣＤ1');
    const visitKept =
      'plate of vehicle check-in left in its old form: in NFKC another open visit of the site holds it, or its vehicle kept its old form';
    expect(warnings.map((warning) => [warning.message, warning.fields?.id])).toEqual([
      ['plate of vehicle left in its old form: in NFKC another vehicle of the account holds it', clashing],
      ['plate of vehicle left in its old form: in NFKC it is no valid plate', invalid],
      [visitKept, openClash],
      [visitKept, clashingOnSite],
    ]);
    // That vehicle, checked in again by its id, is found on site (before the fix, a second open visit).
    expect((await harness.world.api.post(visits(harness.world.siteId), { vehicleId: clashing })).status).toBe(409);
    expect(warnings[0]?.fields).toMatchObject({
      accountId: harness.world.accountId,
      licensePlate: 'ＣＤ-1',
      kept: 'ＣＤ1',
      wanted: 'CD1',
    });

    // Run again (a migration stopped half-way is run again): nothing more changes, the same rows are named.
    const before = await queryRows(db(), sql`SELECT id, plate_norm FROM vehicle_checkins ORDER BY id`);
    expect((await migrate()).map((warning) => warning.fields?.id)).toEqual([
      clashing,
      invalid,
      openClash,
      clashingOnSite,
    ]);
    expect(await queryRows(db(), sql`SELECT id, plate_norm FROM vehicle_checkins ORDER BY id`)).toEqual(before);

    // The gate, typing full-width, finds the registered vehicle: IN, not PENDING as an unknown plate.
    const arrival = await arrive(harness.world.api, harness.world.otherSiteId, { licensePlate: 'ＡＢ－１２３' });
    expect(arrival).toMatchObject({ vehicleId: fullWidth, status: 'IN', licensePlate: 'ＡＢ－１２３' });
    const found = await harness.world.api.get<{ data: Vehicle[] }>(`${VEHICLES}?licensePlate=ab123`);
    expect(found.body.data.map((vehicle) => vehicle.vehicleId)).toEqual([fullWidth]);
    // And the same plate in plain letters is that visit's plate: one open visit per plate per site.
    const again = await harness.world.api.post<VehicleCheckin>(visits(harness.world.otherSiteId), {
      licensePlate: 'AB 123',
    });
    expect(again.status).toBe(409);
  });
});
