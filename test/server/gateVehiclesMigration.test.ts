import { describe, expect, it } from 'vitest';
import type { VehicleChanges, VehicleCheckin } from '../../shared/src/schemas/vehicles';
import { up } from '../../server/src/db/migrations/0014_gate_vehicles';
import { queryOne, queryRows } from '../../server/src/db/query';
import { runMigration } from '../support/migration';
import { serverAndWorld } from '../support/serverAndWorld';
import { VEHICLES, uniquePlate, visits } from '../support/vehicles';
import { sql } from '../../server/src/db/sql';

const harness = serverAndWorld();
const db = () => harness.server.database;

/** The database as it was before migration 0014 (the triggers go with their functions). */
async function undoMigration(): Promise<void> {
  for (const statement of [
    sql`DROP FUNCTION vehicle_feed_vehicles, vehicle_feed_assignments, vehicle_feed_labels CASCADE`,
    sql`DROP TABLE vehicle_feed`,
    sql`DROP SEQUENCE vehicle_feed_seq`,
    sql`ALTER TABLE vehicle_checkins DROP COLUMN stop_reason`,
  ])
    await queryRows(db(), statement);
}

describe('migration 0014: stopReason and the vehicle change feed', () => {
  it('lists the vehicles and labels registered before it (not deleted ones) in the feed; older STOPs keep no reason', async () => {
    const { accountId, siteId, api } = harness.world;
    await undoMigration();
    const label = await queryOne<{ id: number }>(
      db(),
      sql`INSERT INTO vehicle_labels (account_id, name, blocks_entry) VALUES (${accountId}, 'Banned', true) RETURNING id`,
    );
    const [kept, deleted] = await queryRows<{ id: number }>(
      db(),
      sql`INSERT INTO vehicles (account_id, license_plate, plate_norm, deleted_at, created_at, updated_at)
       VALUES (${accountId}, 'Old 1', 'OLD1', NULL, now(), now()), (${accountId}, 'Old 2', 'OLD2', now(), now(), now()) RETURNING id`,
    );
    await queryRows(
      db(),
      sql`INSERT INTO vehicle_label_assignments (account_id, vehicle_id, label_id) VALUES (${accountId}, ${kept?.id}, ${label?.id})`,
    );
    const stop = await queryOne<{ id: number }>(
      db(),
      sql`INSERT INTO vehicle_checkins (account_id, site_id, vehicle_id, license_plate, plate_norm, status, entry_source, entry_at,
         last_event_at, created_at, updated_at)
       VALUES (${accountId}, ${siteId}, ${kept?.id}, 'Old 1', 'OLD1', 'STOP', 'API', now(), now(), now(), now()) RETURNING id`,
    );

    await runMigration(harness.server.database, up);

    const changes = await api.get<VehicleChanges>(`${VEHICLES}/changes`);
    expect(changes.body).toMatchObject({
      vehicles: [{ vehicleId: kept?.id, licensePlate: 'Old 1', plateKey: 'OLD1', labelIds: [label?.id] }],
      labels: [{ labelId: label?.id, name: 'Banned', blocksEntry: true }],
      removedVehicleIds: [],
    });
    expect(changes.body.vehicles.map((vehicle) => vehicle.vehicleId)).not.toContain(deleted?.id);
    expect((await api.get<VehicleCheckin>(`${visits(siteId)}/${stop?.id}`)).body).toMatchObject({
      status: 'STOP',
      stopReason: null,
    });
    // And the triggers are back: a new vehicle is a change after the cursor.
    const registered = await api.post<{ vehicleId: number }>(VEHICLES, { licensePlate: uniquePlate() });
    const next = await api.get<VehicleChanges>(`${VEHICLES}/changes?cursor=${changes.body.nextCursor}`);
    expect(next.body.vehicles.map((vehicle) => vehicle.vehicleId)).toEqual([registered.body.vehicleId]);
  });
});
