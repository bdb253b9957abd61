import type {
  CreatePersonLabelRequest,
  PersonLabel,
  UpdatePersonLabelRequest,
} from '../../../shared/src/schemas/labels';
import { LockNamespace } from '../db/advisoryLocks';
import { type Executor, queryOne, queryRows } from '../db/query';
import { raw, sql } from '../db/sql';
import { notFound } from '../errors/problem';
import { type LabelKind, claimLabelName } from './labelNames';

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

/** The account's person labels, for the list and read routes. */
export const personLabels: LabelKind<LabelRow> = {
  table: 'person_labels',
  columns: COLUMNS,
  lock: LockNamespace.PERSON_LABEL_NAME,
  noun: 'person label',
  present,
};

const missing = (labelId: number) => notFound(`Person label ${labelId} does not exist.`);

/** A new label, its name unique in the account whatever its case (409 LABEL_NAME_TAKEN). */
export async function createPersonLabel(
  db: Executor,
  input: { accountId: number; request: CreatePersonLabelRequest; now: Date },
): Promise<PersonLabel> {
  const { accountId, request, now } = input;
  await claimLabelName(db, personLabels, accountId, request.name);
  const row = await queryOne<LabelRow>(
    db,
    sql`INSERT INTO person_labels (account_id, name, color, created_at, updated_at)
        VALUES (${accountId}, ${request.name}, ${request.color ?? null}, ${now}, ${now}) RETURNING ${raw(COLUMNS)}`,
  );
  if (!row) throw new Error('label insert returned nothing');
  return present(row);
}

/** Renames or recolors a label (`color: null` clears it). */
export async function updatePersonLabel(
  db: Executor,
  input: { accountId: number; labelId: number; request: UpdatePersonLabelRequest; now: Date },
): Promise<PersonLabel> {
  const { accountId, labelId, request, now } = input;
  if (request.name !== undefined) await claimLabelName(db, personLabels, accountId, request.name, labelId);
  const row = await queryOne<LabelRow>(
    db,
    sql`UPDATE person_labels
        SET name = COALESCE(${request.name ?? null}, name),
            color = CASE WHEN ${request.color !== undefined}::boolean THEN ${request.color ?? null} ELSE color END,
            updated_at = ${now}
        WHERE account_id = ${accountId} AND id = ${labelId} RETURNING ${raw(COLUMNS)}`,
  );
  if (!row) throw missing(labelId);
  return present(row);
}

/** Deletes a label and takes it off every check-in that carries it. */
export async function deletePersonLabel(db: Executor, input: { accountId: number; labelId: number }): Promise<void> {
  const { accountId, labelId } = input;
  // The label goes first: that waits for the creates holding it (FOR KEY SHARE) to commit, and turns away
  // those still to come. The untag is a statement of its own, so (READ COMMITTED) it sees what they wrote.
  const row = await queryOne<{ id: number }>(
    db,
    sql`DELETE FROM person_labels WHERE account_id = ${accountId} AND id = ${labelId} RETURNING id`,
  );
  if (!row) throw missing(labelId);
  await queryRows(
    db,
    sql`UPDATE person_checkins SET label_ids = array_remove(label_ids, ${labelId}::integer)
        WHERE account_id = ${accountId} AND label_ids @> ARRAY[${labelId}::integer]`,
  );
}
