import { type Executor, queryOne } from '../db/query';
import { type Sql, empty, join, raw, sql } from '../db/sql';
import { personDataHolders } from './personDataHolders';

export interface Anonymized {
  checkins: number;
  /** Copies of those check-ins elsewhere (webhook events, stored replies, …) that were rewritten. */
  copies: number;
}

/**
 * Anonymizes the person check-ins of one account that `chosen` selects (a `SELECT c.id FROM
 * person_checkins c …`, which locks them), once each, with every copy of them the registered holders keep
 * (privacy/personDataHolders.ts), in one statement. Names become "Deleted"; times, site, status, sources,
 * breaks and labels stay (docs/privacy.md). `sweepLater`: the holders with a `sweep` are left to it.
 */
export async function anonymizeCheckins(
  db: Executor,
  input: { accountId: number; chosen: Sql; now: Date; sweepLater: boolean },
): Promise<Anonymized> {
  const { accountId, now } = input;
  const ids = sql`SELECT id FROM checkins`;
  const holders = personDataHolders.filter(
    (holder) => holder.rewrite !== undefined && !(input.sweepLater && holder.sweep !== undefined),
  );
  const ctes = holders.map((holder, index) => {
    const rewrite = holder.rewrite?.({ accountId, ids, now }) ?? sql`SELECT 1 WHERE false`;
    // CTE names from the index only (code, never input).
    return sql`${raw(`copies_${index}`)} AS (${rewrite})`;
  });
  const counted = holders.map((_, index) => sql`(SELECT count(*) FROM ${raw(`copies_${index}`)})`);
  const row = await queryOne<Anonymized>(
    db,
    sql`WITH chosen AS (${input.chosen}),
      checkins AS (
        UPDATE person_checkins c SET first_name = 'Deleted', last_name = 'Deleted', email = NULL, phone = NULL,
          company = NULL, host_name = NULL, purpose = NULL, custom_fields = '{}', deny_reason = NULL,
          stop_reason = CASE WHEN c.stop_source = 'denied' THEN NULL ELSE c.stop_reason END,
          anonymized_at = ${now}, updated_at = ${now}
        WHERE c.account_id = ${accountId} AND c.id IN (SELECT id FROM chosen) AND c.anonymized_at IS NULL
        RETURNING c.id)
      ${ctes.length > 0 ? sql`, ${join(ctes, ', ')}` : empty}
      SELECT (SELECT count(*) FROM checkins)::int AS checkins,
        (${counted.length > 0 ? join(counted, ' + ') : sql`0`})::int AS copies`,
  );
  if (!row) throw new Error('the anonymization returned nothing');
  return row;
}

/** After a retention run changed anything: the holders that sweep (stored replies) sweep the account once. */
export async function sweepHolders(db: Executor, accountId: number): Promise<number> {
  let changed = 0;
  for (const holder of personDataHolders) if (holder.sweep) changed += await holder.sweep(db, accountId);
  return changed;
}
