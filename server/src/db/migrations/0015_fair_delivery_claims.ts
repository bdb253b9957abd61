import type { MigrationFn } from './types';

/**
 * The due deliveries of one subscription, oldest first: the dispatcher's claim takes a few from the head
 * of each subscription (so one tenant's backlog at a slow receiver cannot hide another's first attempt),
 * and without this index each head would be found by walking the subscription's whole delivery history.
 * Built CONCURRENTLY (not in a transaction), as 0011's indexes, so a deploy does not stop deliveries.
 */
const NAME = 'webhook_deliveries_due_by_subscription';

export const up: MigrationFn = async ({ context: sql }) => {
  const [rows] = (await sql(
    `SELECT i.indisvalid AS valid FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid
     WHERE c.relname = $1 AND c.relnamespace = current_schema()::regnamespace`,
    [NAME],
  )) as [Array<{ valid: boolean }>];
  if (rows[0]?.valid === false) await sql(`DROP INDEX CONCURRENTLY ${NAME}`);
  await sql(
    `CREATE INDEX CONCURRENTLY IF NOT EXISTS ${NAME}
     ON webhook_deliveries (account_id, subscription_id, next_attempt_at) WHERE status = 'pending'`,
  );
};
