import { CreatePersonLabelRequest, PersonLabel, UpdatePersonLabelRequest } from '../../../../shared/src/schemas/labels';
import { queryOne, queryRows } from '../../db/query';
import { LockNamespace } from '../../db/advisoryLocks';
import { notFound } from '../../errors/problem';
import { type LabelKind, claimLabelName } from '../../commands/labelNames';
import { listByIdRoute, readByIdRoute } from '../accountCollection';
import { defineRoute } from '../define';
import { LabelParams } from '../params';

const tag = 'Person labels';

interface LabelRow {
  id: number;
  name: string;
  color: string | null;
  created_at: Date;
  updated_at: Date;
}

const present = (row: LabelRow): PersonLabel => ({
  labelId: row.id,
  name: row.name,
  color: row.color,
  createdAt: row.created_at.toISOString(),
  updatedAt: row.updated_at.toISOString(),
});

const COLUMNS = 'id, name, color, created_at, updated_at';
const personLabels: LabelKind<LabelRow> = {
  table: 'person_labels',
  columns: COLUMNS,
  lock: LockNamespace.PERSON_LABEL_NAME,
  noun: 'person label',
  present,
};

export const labelRoutes = [
  defineRoute({
    method: 'POST',
    path: '/labels/people',
    summary: 'Create a person label',
    tag,
    auth: 'token',
    scope: 'labels:write',
    body: CreatePersonLabelRequest,
    responses: { 201: PersonLabel },
    handler: async ({ db, principal, body, now }) => {
      await claimLabelName(db, personLabels, principal.accountId, body.name);
      const row = await queryOne<LabelRow>(
        db,
        `INSERT INTO person_labels (account_id, name, color, created_at, updated_at) VALUES ($1, $2, $3, $4, $4)
         RETURNING ${COLUMNS}`,
        [principal.accountId, body.name, body.color ?? null, now],
      );
      if (!row) throw new Error('label insert returned nothing');
      return { status: 201, body: present(row) };
    },
  }),
  listByIdRoute(personLabels, { path: '/labels/people', summary: 'List person labels (oldest first)', tag, scope: 'checkins:read', item: PersonLabel }),
  readByIdRoute(personLabels, {
    path: '/labels/people/:labelId', summary: 'Read a person label', tag, scope: 'checkins:read', item: PersonLabel,
    params: LabelParams, idOf: (params) => params.labelId,
  }),
  defineRoute({
    method: 'PATCH',
    path: '/labels/people/:labelId',
    summary: 'Rename or recolor a person label (null clears the color)',
    tag,
    auth: 'token',
    scope: 'labels:write',
    params: LabelParams,
    body: UpdatePersonLabelRequest,
    responses: { 200: PersonLabel },
    handler: async ({ db, principal, params, body, now }) => {
      if (body.name !== undefined) await claimLabelName(db, personLabels, principal.accountId, body.name, params.labelId);
      const row = await queryOne<LabelRow>(
        db,
        `UPDATE person_labels
         SET name = COALESCE($3, name), color = CASE WHEN $4 THEN $5 ELSE color END, updated_at = $6
         WHERE account_id = $1 AND id = $2 RETURNING *`,
        [principal.accountId, params.labelId, body.name ?? null, body.color !== undefined, body.color ?? null, now],
      );
      if (!row) throw notFound(`Person label ${params.labelId} does not exist.`);
      return { status: 200, body: present(row) };
    },
  }),
  defineRoute({
    method: 'DELETE',
    path: '/labels/people/:labelId',
    summary: 'Delete a person label (it is taken off every check-in that carries it)',
    tag,
    auth: 'token',
    scope: 'labels:write',
    params: LabelParams,
    responses: { 204: null },
    handler: async ({ db, principal, params }) => {
      // The label goes first: that waits for the creates holding it (FOR KEY SHARE) to commit, and turns away
      // those still to come. The untag is a statement of its own, so (READ COMMITTED) it sees what they wrote.
      const row = await queryOne<{ id: number }>(db, 'DELETE FROM person_labels WHERE account_id = $1 AND id = $2 RETURNING id', [
        principal.accountId,
        params.labelId,
      ]);
      if (!row) throw notFound(`Person label ${params.labelId} does not exist.`);
      await queryRows(
        db,
        `UPDATE person_checkins SET label_ids = array_remove(label_ids, $2)
         WHERE account_id = $1 AND label_ids @> ARRAY[$2]::int[]`,
        [principal.accountId, params.labelId],
      );
      return { status: 204 };
    },
  }),
];
