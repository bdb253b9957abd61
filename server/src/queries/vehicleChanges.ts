import type { VehicleChanges } from '../../../shared/src/schemas/vehicles';
import { LockNamespace } from '../db/advisoryLocks';
import { type Executor, queryOne, queryRows } from '../db/query';
import { sql } from '../db/sql';
import { problem } from '../errors/problem';
import { cursorScope } from './cursor';

/** One changed vehicle or label, as it is now: its columns are null when it is deleted (or gone). */
interface ChangeRow {
  kind: 'vehicle' | 'label';
  entity_id: number;
  change_seq: number;
  license_plate: string | null;
  plate_norm: string | null;
  make: string | null;
  model: string | null;
  color: string | null;
  label_ids: number[] | null;
  name: string | null;
  blocks_entry: boolean | null;
}

// The feed's cursor is the sequence number of the last change answered, tagged with the account's scope, so
// a cursor of another account (or another list) is refused rather than read as a position here.
const scopeOf = (accountId: number) => cursorScope('vehicle-changes', { accountId });
/** The feed's cursor after change `seq` (also what the event stream's `vehicles` events carry). */
export const encodeVehicleCursor = (seq: number, accountId: number) =>
  Buffer.from(JSON.stringify([seq, scopeOf(accountId)])).toString('base64url');
const notIssued = () =>
  problem('INVALID_QUERY', 'The cursor is not one this feed issued to this account: start again without it.');

function decode(cursor: string, accountId: number): number {
  let value: unknown;
  try {
    value = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    throw notIssued();
  }
  if (!Array.isArray(value) || value.length !== 2) throw notIssued();
  const [seq, scope] = value as unknown[];
  if (typeof seq !== 'number' || !Number.isSafeInteger(seq) || seq < 0 || scope !== scopeOf(accountId))
    throw notIssued();
  return seq;
}

/**
 * The highest feed number of which every change of this account is settled (committed or rolled back). The
 * account's writers hold its feed lock shared from before they draw a number until they commit (migration
 * 0043); taking it exclusively waits for those that hold it, and every number drawn until then is settled
 * once it is had. The lock goes with the statement (the pool runs it on its own); a reading bounded by this
 * number, in a later statement, never passes a number that could still commit.
 */
async function settledPosition(db: Executor, accountId: number): Promise<number> {
  const row = await queryOne<{ settled: number }>(
    db,
    sql`SELECT CASE WHEN (SELECT true FROM pg_advisory_xact_lock(${LockNamespace.VEHICLE_FEED}::integer, ${accountId}::integer))
      THEN COALESCE(pg_sequence_last_value('vehicle_feed_seq'), 0) END::bigint AS settled`,
    { prepare: true },
  );
  if (row === undefined) throw new Error('the feed lock answered no row');
  return row.settled;
}

/**
 * The account's vehicle and label changes after `cursor` (from the beginning without one), oldest first,
 * `limit` of them: each changed vehicle or label as it is now, or its id among the removed. The page is one
 * statement, so one snapshot, and bounded by the settled number, so it skips nothing (migrations 0014, 0043).
 */
export async function readVehicleChanges(
  db: Executor,
  input: { accountId: number; cursor?: string; limit: number },
): Promise<VehicleChanges> {
  const { accountId, limit } = input;
  const after = input.cursor === undefined ? 0 : decode(input.cursor, accountId);
  const settled = await settledPosition(db, accountId);
  // Each changed row is looked up by its key (LATERAL … LIMIT 1), so a page costs the same at any account size:
  // a plain join read the whole vehicles table for every page (86 ms a page at 200,000 vehicles, 16 ms so).
  const rows = await queryRows<ChangeRow>(
    db,
    sql`
    WITH page AS (
      SELECT kind, entity_id, change_seq FROM vehicle_feed
      WHERE account_id = ${accountId} AND change_seq > ${after} AND change_seq <= ${settled}::bigint
      ORDER BY change_seq LIMIT ${limit + 1})
    SELECT p.kind, p.entity_id, p.change_seq, v.license_plate, v.plate_norm, v.make, v.model, v.color, v.label_ids,
      l.name, l.blocks_entry
    FROM page p
    LEFT JOIN LATERAL (
      SELECT v.license_plate, v.plate_norm, v.make, v.model, v.color,
        ARRAY(SELECT a.label_id FROM vehicle_label_assignments a
              WHERE a.account_id = v.account_id AND a.vehicle_id = v.id ORDER BY a.label_id) AS label_ids
      FROM vehicles v
      WHERE p.kind = 'vehicle' AND v.account_id = ${accountId} AND v.id = p.entity_id AND v.deleted_at IS NULL
      LIMIT 1) v ON true
    LEFT JOIN LATERAL (
      SELECT l.name, l.blocks_entry FROM vehicle_labels l
      WHERE p.kind = 'label' AND l.account_id = ${accountId} AND l.id = p.entity_id
      LIMIT 1) l ON true
    ORDER BY p.change_seq`,
  );
  const answered = rows.slice(0, limit);
  const changes: VehicleChanges = {
    vehicles: [],
    labels: [],
    removedVehicleIds: [],
    removedLabelIds: [],
    nextCursor: encodeVehicleCursor(answered.at(-1)?.change_seq ?? after, accountId),
    hasMore: rows.length > limit,
  };
  for (const row of answered) {
    if (row.kind === 'label') {
      if (row.name === null || row.blocks_entry === null) changes.removedLabelIds.push(row.entity_id);
      else changes.labels.push({ labelId: row.entity_id, name: row.name, blocksEntry: row.blocks_entry });
    } else if (row.license_plate === null || row.plate_norm === null || row.label_ids === null) {
      changes.removedVehicleIds.push(row.entity_id);
    } else {
      changes.vehicles.push({
        vehicleId: row.entity_id,
        licensePlate: row.license_plate,
        plateKey: row.plate_norm,
        make: row.make,
        model: row.model,
        color: row.color,
        labelIds: row.label_ids,
      });
    }
  }
  return changes;
}
