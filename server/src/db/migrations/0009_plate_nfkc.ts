import { normalizePlate, plateProblem } from '../../../../shared/src/domain';
import type { MigrationFn, RunSql } from './types';

/**
 * Plates are now compared in NFKC instead of NFC (shared/src/domain/plate.ts): a plate typed in
 * full-width forms (a Japanese or Chinese input method: `ＡＢ－１２３`), with a ligature or a circled digit,
 * is the plate in plain letters and digits. Before, `ＡＢ-123` was a plate of its own: a second
 * registration of the same vehicle, or a vehicle whose blocking label did not stop it at the gate.
 *
 * Stored plates are normalized again. Only a plate with a character beyond ASCII can change. A new form that
 * would make two live vehicles of an account hold one plate, or two open visits of one site, or that is no
 * valid plate, is not written: that row keeps its old form and the log names it, for someone to resolve
 * (delete or re-plate one of the two). Such a vehicle is still read, listed and checked in by its id, but a
 * plate typed at the gate now finds the vehicle that holds the new form; its open visits keep the old form
 * with it, so a check-in by its id still finds them.
 * Each row is its own statement, so the migration can stop and run again.
 */

interface PlateRow {
  account_id: number;
  id: string;
  license_plate: string;
  plate_norm: string;
  open?: boolean;
}

const BATCH = 2_000;
// ASCII is its own NFKC: only plates with another character can change.
const NON_ASCII = `license_plate ~ '[^\\x01-\\x7f]'`;

const rowsOf = <Row>(result: unknown): Row[] =>
  Array.isArray(result) && Array.isArray(result[0]) ? (result[0] as Row[]) : [];

const updated = (result: unknown) => rowsOf(result).length > 0;

// Written only if no other live vehicle of the account holds the new form (a deleted one holds nothing).
const VEHICLE = `
  UPDATE vehicles v SET plate_norm = $3
  WHERE v.account_id = $1 AND v.id = $2 AND v.plate_norm = $4
    AND (v.deleted_at IS NOT NULL OR NOT EXISTS (
      SELECT 1 FROM vehicles o
      WHERE o.account_id = v.account_id AND o.plate_norm = $3 AND o.deleted_at IS NULL AND o.id <> v.id))
  RETURNING v.id`;

// Written only if no other open visit of the site holds the new form (a closed visit holds nothing), and
// an open visit of a live vehicle only along with its vehicle: one whose vehicle kept its old form keeps it
// too, or a check-in by that vehicle would not find its open visit and let it in a second time.
const VISIT = `
  UPDATE vehicle_checkins c SET plate_norm = $3
  WHERE c.account_id = $1 AND c.id = $2 AND c.plate_norm = $4
    AND (c.status NOT IN ('IN', 'PENDING') OR (
      NOT EXISTS (
        SELECT 1 FROM vehicle_checkins o
        WHERE o.account_id = c.account_id AND o.site_id = c.site_id AND o.plate_norm = $3
          AND o.status IN ('IN', 'PENDING') AND o.id <> c.id)
      AND NOT EXISTS (
        SELECT 1 FROM vehicles v
        WHERE v.account_id = c.account_id AND v.id = c.vehicle_id AND v.deleted_at IS NULL AND v.plate_norm <> $3)))
  RETURNING c.id`;

/** Every row of a table whose plate has a non-ASCII character, in batches by id. */
async function* nonAsciiPlates(sql: RunSql, table: 'vehicles' | 'vehicle_checkins'): AsyncGenerator<PlateRow> {
  const open = table === 'vehicle_checkins' ? `, status IN ('IN', 'PENDING') AS open` : '';
  let after = '0';
  for (;;) {
    const rows = rowsOf<PlateRow>(
      await sql(
        `SELECT account_id, id::text AS id, license_plate, plate_norm${open} FROM ${table}
       WHERE ${NON_ASCII} AND id > $1::bigint ORDER BY id LIMIT ${BATCH}`,
        [after],
      ),
    );
    yield* rows;
    const last = rows[rows.length - 1];
    if (!last || rows.length < BATCH) return;
    after = last.id;
  }
}

async function renormalize(sql: RunSql, table: 'vehicles' | 'vehicle_checkins'): Promise<number> {
  const what = table === 'vehicles' ? 'vehicle' : 'vehicle check-in';
  let changed = 0;
  for await (const row of nonAsciiPlates(sql, table)) {
    const norm = normalizePlate(row.license_plate);
    if (norm === row.plate_norm) continue;
    const fields = {
      accountId: row.account_id,
      id: Number(row.id),
      licensePlate: row.license_plate,
      kept: row.plate_norm,
      wanted: norm,
    };
    if (plateProblem(row.license_plate) !== undefined) {
      sql.warn(`plate of ${what} left in its old form: in NFKC it is no valid plate`, fields);
      continue;
    }
    try {
      if (updated(await sql(table === 'vehicles' ? VEHICLE : VISIT, [row.account_id, row.id, norm, row.plate_norm])))
        changed += 1;
      else {
        const why =
          table === 'vehicles'
            ? 'another vehicle of the account holds it'
            : 'another open visit of the site holds it, or its vehicle kept its old form';
        sql.warn(`plate of ${what} left in its old form: in NFKC ${why}`, fields);
      }
    } catch (error) {
      // One written meanwhile by a server still running the old code: the unique index refused this one.
      if (!(error instanceof Error && error.name === 'SequelizeUniqueConstraintError')) throw error;
      sql.warn(`plate of ${what} left in its old form: in NFKC another row holds it`, fields);
    }
  }
  return changed;
}

export const up: MigrationFn = async ({ context: sql }) => {
  await renormalize(sql, 'vehicles');
  await renormalize(sql, 'vehicle_checkins');
};
