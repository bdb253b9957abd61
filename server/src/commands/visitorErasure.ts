import { createHash } from 'node:crypto';
import { type ErasureIdentifiers, erasureHashText } from '../../../shared/src/domain/privacy';
import type { ErasureResult } from '../../../shared/src/schemas/privacy';
import type { Executor } from '../db/query';
import { type Sql, join, sql } from '../db/sql';
import { anonymizeCheckins } from '../privacy/anonymization';

// The watchlist's normalizations (shared/src/domain/watchlist.ts), in SQL: trimmed, lower case, phone digits.
const trimmed = (column: Sql) => sql`regexp_replace(${column}, '^\\s+|\\s+$', '', 'g')`;
const spaced = (column: Sql) => sql`lower(regexp_replace(${trimmed(column)}, '\\s+', ' ', 'g'))`;

function matching(identifiers: ErasureIdentifiers): Sql {
  const any: Sql[] = [];
  if (identifiers.email !== null) any.push(sql`lower(${trimmed(sql`c.email`)}) = ${identifiers.email}`);
  if (identifiers.phone !== null) any.push(sql`regexp_replace(c.phone, '\\D', '', 'g') = ${identifiers.phone}`);
  if (identifiers.name !== null)
    any.push(sql`${spaced(sql`c.first_name`)} || ' ' || ${spaced(sql`c.last_name`)} = ${identifiers.name}`);
  return any.length > 0 ? sql`(${join(any, ' OR ')})` : sql`false`;
}

/** The SHA-256 (hex) the audit log keeps of an erasure's identifiers, never the identifiers. */
export function erasureHash(identifiers: ErasureIdentifiers): string {
  return createHash('sha256').update(erasureHashText(identifiers)).digest('hex');
}

/**
 * Anonymizes at once every person check-in of the account, on every site, that matches any identifier, with
 * its copies in webhook events and stored replies; the watchlist is left as it is (docs/api.md, Erasure).
 */
export async function eraseVisitor(
  db: Executor,
  input: { accountId: number; identifiers: ErasureIdentifiers; now: Date },
): Promise<ErasureResult> {
  const chosen = sql`SELECT c.id FROM person_checkins c
    WHERE c.account_id = ${input.accountId} AND c.anonymized_at IS NULL AND ${matching(input.identifiers)}
    FOR UPDATE`;
  const done = await anonymizeCheckins(db, { accountId: input.accountId, chosen, now: input.now, sweepLater: false });
  return { anonymized: done.checkins };
}
