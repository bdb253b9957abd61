import { LockNamespace, lockUntilCommit } from '../db/advisoryLocks';
import { type Executor, queryOne } from '../db/query';
import { conflict } from '../errors/problem';
import type { AccountCollection } from '../db/accountCollection';

/** A table of labels whose names are unique per account, case-insensitively. */
export interface LabelKind<Row extends { id: number }> extends AccountCollection<Row> {
  table: 'person_labels' | 'vehicle_labels';
  lock: typeof LockNamespace.PERSON_LABEL_NAME | typeof LockNamespace.VEHICLE_LABEL_NAME;
}

/**
 * Takes the name's lock until commit (every create and rename does, so racing writes of one name are
 * serialized: a 409, never a unique violation) and refuses a name another label of the account already
 * has, with that label as `current`. `ownId`: the label being renamed may keep its own name.
 */
export async function claimLabelName<Row extends { id: number; name: string }>(
  db: Executor,
  kind: LabelKind<Row>,
  accountId: number,
  name: string,
  ownId?: number,
): Promise<void> {
  await lockUntilCommit(db, kind.lock, accountId, name.toLowerCase());
  const existing = await queryOne<Row>(
    db,
    `SELECT ${kind.columns} FROM ${kind.table} WHERE account_id = $1 AND lower(name) = lower($2)`,
    [accountId, name],
  );
  if (existing && existing.id !== ownId) {
    throw conflict('LABEL_NAME_TAKEN', `A ${kind.noun} named "${existing.name}" exists already.`, kind.present(existing));
  }
}
