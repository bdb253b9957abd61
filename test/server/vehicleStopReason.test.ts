import { describe, expect, it } from 'vitest';
import type { VehicleCheckin } from '../../shared/src/schemas/vehicles';
import { queryOne } from '../../server/src/db/query';
import { serverAndWorld } from '../support/serverAndWorld';
import { arrive, createVehicleLabel, registerVehicle, uniqueName, uniquePlate, visit } from '../support/vehicles';
import { sql } from '../../server/src/db/sql';

const context = serverAndWorld();

/** A PENDING visit (an unknown plate) denied with `body`: the answer, which must be 200. */
async function deny(body: Record<string, unknown>): Promise<VehicleCheckin> {
  const { world } = context;
  const pending = await arrive(world.api, world.siteId, { licensePlate: uniquePlate('NEW') });
  expect(pending).toMatchObject({ status: 'PENDING', stopReason: null });
  const denied = await world.api.post<VehicleCheckin>(`${visit(pending)}/deny`, body);
  expect(denied.status, denied.text).toBe(200);
  return denied.body;
}

describe('stopReason: why a vehicle is stopped, in words', () => {
  it('a vehicle carrying blocksEntry labels is STOP, naming those labels (sorted), not its other ones', async () => {
    const { world, server } = context;
    const zed = await createVehicleLabel(world.api, { name: uniqueName('Zed ban'), blocksEntry: true });
    const banned = await createVehicleLabel(world.api, { name: uniqueName('Banned'), blocksEntry: true });
    const vip = await createVehicleLabel(world.api, { name: uniqueName('VIP') });
    const vehicle = await registerVehicle(world.api, {
      licensePlate: uniquePlate('BAN'),
      labelIds: [zed.labelId, vip.labelId, banned.labelId],
    });
    const stopped = await arrive(world.api, world.siteId, { licensePlate: vehicle.licensePlate });
    expect(stopped).toMatchObject({ status: 'STOP', stopReason: `Blocked by label: ${banned.name}, ${zed.name}` });
    expect((await world.api.get<VehicleCheckin>(visit(stopped))).body.stopReason).toBe(stopped.stopReason);
    const stored = await queryOne<{ stop_reason: string }>(
      server.database,
      sql`SELECT stop_reason FROM vehicle_checkins WHERE account_id = ${world.accountId} AND id = ${stopped.checkinId}`,
    );
    expect(stored?.stop_reason).toBe(stopped.stopReason);
  });

  it('a registered vehicle without a blocking label is IN with no stopReason', async () => {
    const { world } = context;
    const vip = await createVehicleLabel(world.api, { name: uniqueName('Guest') });
    const vehicle = await registerVehicle(world.api, { licensePlate: uniquePlate('OK'), labelIds: [vip.labelId] });
    expect(await arrive(world.api, world.siteId, { vehicleId: vehicle.vehicleId })).toMatchObject({
      status: 'IN',
      stopReason: null,
    });
  });

  it('a deny with a reason stops with that reason; without one (or a blank one), with "Refused"', async () => {
    expect(await deny({ reason: 'No delivery booked' })).toMatchObject({
      status: 'STOP',
      denyReason: 'No delivery booked',
      stopReason: 'No delivery booked',
    });
    expect(await deny({})).toMatchObject({ status: 'STOP', denyReason: null, stopReason: 'Refused' });
    expect((await deny({ reason: '   ' })).stopReason).toBe('Refused');
  });

  it('a checkout of a STOP keeps its reason', async () => {
    const { world } = context;
    const denied = await deny({ reason: 'Wrong gate' });
    const out = await world.api.patch<VehicleCheckin>(visit(denied), {});
    expect(out.body).toMatchObject({ status: 'OUT', stopReason: 'Wrong gate' });
  });
});
