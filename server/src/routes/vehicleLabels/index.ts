import { PageQuery, page } from '../../../../shared/src/schemas/common';
import { CreateVehicleLabelRequest, UpdateVehicleLabelRequest, VehicleLabel } from '../../../../shared/src/schemas/vehicles';
import { type Executor, queryOne, queryRows } from '../../db/query';
import type { VehicleLabelRow } from '../../db/vehicleRows';
import { LockNamespace, lockUntilCommit } from '../../db/advisoryLocks';
import { conflict, notFound } from '../../errors/problem';
import { presentVehicleLabel as present } from '../../presenters/vehicle';
import { afterId, idPage } from '../../queries/cursor';
import { defineRoute } from '../define';
import { LabelParams } from '../params';

const tag = 'Vehicle labels';
const COLUMNS = 'id, name, color, blocks_entry, created_at, updated_at';

async function findByName(db: Executor, accountId: number, name: string): Promise<VehicleLabelRow | undefined> {
  return queryOne<VehicleLabelRow>(db, `SELECT ${COLUMNS} FROM vehicle_labels WHERE account_id = $1 AND lower(name) = lower($2)`, [
    accountId,
    name,
  ]);
}

/** Serializes writes of one name (case-insensitively) until commit, so a rename racing another write sees it: 409, not a unique violation. */
async function lockName(db: Executor, accountId: number, name: string): Promise<void> {
  await lockUntilCommit(db, LockNamespace.VEHICLE_LABEL_NAME, accountId, name.toLowerCase());
}

const nameTaken = (existing: VehicleLabelRow) =>
  conflict('LABEL_NAME_TAKEN', `A vehicle label named "${existing.name}" exists already.`, present(existing));

export const vehicleLabelRoutes = [
  defineRoute({
    method: 'POST',
    path: '/labels/vehicles',
    summary: 'Create a vehicle label (blocksEntry: vehicles carrying it are stopped at the gate)',
    tag,
    auth: 'token',
    scope: 'labels:write',
    body: CreateVehicleLabelRequest,
    responses: { 201: VehicleLabel },
    handler: async ({ db, principal, body, now }) => {
      await lockName(db, principal.accountId, body.name);
      // ON CONFLICT keeps the transaction usable, so the 409 can be stored for an Idempotency-Key.
      const row = await queryOne<VehicleLabelRow>(
        db,
        `INSERT INTO vehicle_labels (account_id, name, color, blocks_entry, created_at, updated_at)
         VALUES ($1, $2, $3, $4, $5, $5)
         ON CONFLICT (account_id, lower(name)) DO NOTHING RETURNING ${COLUMNS}`,
        [principal.accountId, body.name, body.color ?? null, body.blocksEntry ?? false, now],
      );
      if (row) return { status: 201, body: present(row) };
      const existing = await findByName(db, principal.accountId, body.name);
      if (!existing) throw new Error('label name conflict without a label');
      throw nameTaken(existing);
    },
  }),
  defineRoute({
    method: 'GET',
    path: '/labels/vehicles',
    summary: 'List vehicle labels (oldest first)',
    tag,
    auth: 'token',
    scope: 'vehicles:read',
    query: PageQuery,
    responses: { 200: page(VehicleLabel) },
    handler: async ({ db, principal, query }) => {
      const rows = await queryRows<VehicleLabelRow>(
        db,
        `SELECT ${COLUMNS} FROM vehicle_labels WHERE account_id = $1 AND id > $2 ORDER BY id LIMIT $3`,
        [principal.accountId, afterId(query.cursor), query.limit + 1],
      );
      return { status: 200, body: idPage(rows, query.limit, present) };
    },
  }),
  defineRoute({
    method: 'GET',
    path: '/labels/vehicles/:labelId',
    summary: 'Read a vehicle label',
    tag,
    auth: 'token',
    scope: 'vehicles:read',
    params: LabelParams,
    responses: { 200: VehicleLabel },
    handler: async ({ db, principal, params }) => {
      const row = await queryOne<VehicleLabelRow>(db, `SELECT ${COLUMNS} FROM vehicle_labels WHERE account_id = $1 AND id = $2`, [
        principal.accountId,
        params.labelId,
      ]);
      if (!row) throw notFound(`Vehicle label ${params.labelId} does not exist.`);
      return { status: 200, body: present(row) };
    },
  }),
  defineRoute({
    method: 'PATCH',
    path: '/labels/vehicles/:labelId',
    summary: 'Rename, recolor or (un)block a vehicle label (null clears the color)',
    tag,
    auth: 'token',
    scope: 'labels:write',
    params: LabelParams,
    body: UpdateVehicleLabelRequest,
    responses: { 200: VehicleLabel },
    handler: async ({ db, principal, params, body, now }) => {
      if (body.name !== undefined) {
        await lockName(db, principal.accountId, body.name);
        const existing = await findByName(db, principal.accountId, body.name);
        if (existing && existing.id !== params.labelId) throw nameTaken(existing);
      }
      const row = await queryOne<VehicleLabelRow>(
        db,
        `UPDATE vehicle_labels
         SET name = COALESCE($3, name), color = CASE WHEN $4 THEN $5 ELSE color END,
             blocks_entry = COALESCE($6, blocks_entry), updated_at = $7
         WHERE account_id = $1 AND id = $2 RETURNING ${COLUMNS}`,
        [principal.accountId, params.labelId, body.name ?? null, body.color !== undefined, body.color ?? null, body.blocksEntry ?? null, now],
      );
      if (!row) throw notFound(`Vehicle label ${params.labelId} does not exist.`);
      return { status: 200, body: present(row) };
    },
  }),
  defineRoute({
    method: 'DELETE',
    path: '/labels/vehicles/:labelId',
    summary: 'Delete a vehicle label (it is taken off every vehicle that carries it)',
    tag,
    auth: 'token',
    scope: 'labels:write',
    params: LabelParams,
    responses: { 204: null },
    handler: async ({ db, principal, params }) => {
      // The assignments go with it (ON DELETE CASCADE).
      const row = await queryOne<{ id: number }>(db, 'DELETE FROM vehicle_labels WHERE account_id = $1 AND id = $2 RETURNING id', [
        principal.accountId,
        params.labelId,
      ]);
      if (!row) throw notFound(`Vehicle label ${params.labelId} does not exist.`);
      return { status: 204 };
    },
  }),
];
