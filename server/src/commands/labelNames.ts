import { type LockNamespace, lockUntilCommit } from '../db/advisoryLocks';
import { type Executor, queryOne } from '../db/query';
import { conflict, notFound } from '../errors/problem';
import type { AccountCollection } from '../queries/accountCollection';
import { raw, sql } from '../db/sql';

/** A table of labels whose names are unique per account, case-insensitively. */
export interface LabelKind<Row extends { id: number }> extends AccountCollection<Row> {
  table: 'person_labels' | 'vehicle_labels';
  lock: typeof LockNamespace.PERSON_LABEL_NAME | typeof LockNamespace.VEHICLE_LABEL_NAME;
}

/**
 * Takes the name's lock until commit (every create and rename does, so racing writes of one name are
 * serialized: a 409, never a unique violation) and refuses a name another label of the account already
 * has, with that label as `current`. `ownId`: the label being renamed, which must exist (else 404, before
 * any name is compared) and may keep its own name; it stays locked until commit, as its update would.
 */
export async function claimLabelName<Row extends { id: number; name: string }>(
  db: Executor,
  kind: LabelKind<Row>,
  accountId: number,
  name: string,
  ownId?: number,
): Promise<void> {
  if (ownId !== undefined) {
    const own = await queryOne<{ id: number }>(
      db,
      sql`SELECT id FROM ${raw(kind.table)} WHERE account_id = ${accountId} AND id = ${ownId} FOR NO KEY UPDATE`,
    );
    if (!own) throw notFound(`${kind.noun[0]?.toUpperCase()}${kind.noun.slice(1)} ${ownId} does not exist.`);
  }
  await lockUntilCommit(db, kind.lock, accountId, name, { caseless: true });
  const existing = await queryOne<Row>(
    db,
    sql`SELECT ${raw(kind.columns)} FROM ${raw(kind.table)} WHERE account_id = ${accountId} AND lower(name) = lower(${name})`,
  );
  if (existing && existing.id !== ownId) {
    throw conflict(
      'LABEL_NAME_TAKEN',
      `A ${kind.noun} named "${existing.name}" exists already.`,
      kind.present(existing),
    );
  }
}
