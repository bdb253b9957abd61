import type { RetentionSettings } from '../../../shared/src/schemas/privacy';
import { type Executor, queryOne } from '../db/query';
import { sql } from '../db/sql';

/** The account's retention of visitors' personal data (docs/api.md, Retention). */
export async function readRetention(db: Executor, accountId: number): Promise<RetentionSettings> {
  const row = await queryOne<{ days: number | null }>(
    db,
    sql`SELECT person_data_days AS days FROM accounts WHERE id = ${accountId}`,
  );
  return { personDataDays: row?.days ?? null };
}

/** Sets it; the retention job applies it on its next run. */
export async function setRetention(
  db: Executor,
  input: { accountId: number; settings: RetentionSettings },
): Promise<RetentionSettings> {
  const row = await queryOne<{ days: number | null }>(
    db,
    sql`UPDATE accounts SET person_data_days = ${input.settings.personDataDays}::integer WHERE id = ${input.accountId}
        RETURNING person_data_days AS days`,
  );
  if (!row) throw new Error(`account ${input.accountId} does not exist`);
  return { personDataDays: row.days };
}
