import { type Executor, inTransaction, queryOne, queryRows } from '../db/query';
import { sql } from '../db/sql';

/**
 * A batch, for one account, in one short transaction of three statements. First the account's
 * subscriptions `FOR KEY SHARE` (as the fan-out takes them): a subscription `DELETE`, which takes its row
 * `FOR UPDATE` and then parks its pending deliveries, waits for the batch or the batch for it, never each
 * for the other's delivery rows. A statement of its own, so nothing else is locked while it waits.
 */
const lockSubscriptions = (accountId: number) => sql`
  SELECT s.id FROM webhook_subscriptions s WHERE s.account_id = ${accountId} ORDER BY s.id FOR KEY SHARE`;

/**
 * Then the next `batch` events after `after`, older than `before` and fanned out, are locked SKIP LOCKED. A
 * manual retry share-locks its event first, so the batch skips it, or the retry waits and finds it gone (404).
 * The last statement's snapshot is taken after these locks, so it sees every retry committed before them.
 */
const lockEvents = (input: { accountId: number; before: Date; batch: number; after: number }) => sql`
  WITH scanned AS (
    SELECT o.id, o.created_at FROM outbox_events o
    WHERE o.account_id = ${input.accountId} AND o.id > ${input.after} ORDER BY o.id LIMIT ${input.batch}),
  locked AS (
    SELECT o.id FROM outbox_events o
    WHERE o.account_id = ${input.accountId} AND o.id = ANY (ARRAY(SELECT id FROM scanned WHERE created_at < ${input.before}))
      AND NOT EXISTS (SELECT 1 FROM outbox_queue q WHERE q.outbox_id = o.id)
    FOR UPDATE OF o SKIP LOCKED)
  SELECT ARRAY(SELECT id FROM locked) AS events, (SELECT max(id) FROM scanned) AS "lastId",
    -- Ids follow time only roughly (an event is stamped when its request began, by its instance's clock):
    -- the walk goes on an hour past the cut-off, then stops.
    (SELECT count(*) FROM scanned) < ${input.batch}
      OR EXISTS (SELECT 1 FROM scanned WHERE created_at >= ${input.before}::timestamptz + interval '1 hour') AS done`;

/**
 * Last, of the locked events, those with no delivery still pending (retrying, or parked behind
 * a disabled subscription) go, with all their deliveries; an event kept back keeps all of them, so the log
 * never shows half of one event. Nothing else makes a finished delivery pending again, and the fan-out only
 * writes deliveries of events still queued.
 */
const deleteBatch = (accountId: number, events: string[], subscriptionIds: number[]) => {
  const account = sql`${accountId}::integer`;
  const subscriptions = sql`${subscriptionIds}::int[]`;
  return sql`
  WITH doomed AS (
    SELECT o.id FROM outbox_events o
    WHERE o.account_id = ${account} AND o.id = ANY (${events}::bigint[])
      AND NOT EXISTS (SELECT 1 FROM outbox_queue q WHERE q.outbox_id = o.id)
      AND NOT EXISTS (SELECT 1 FROM webhook_deliveries d
                      WHERE d.account_id = ${account} AND d.subscription_id = ANY (${subscriptions}) AND d.outbox_id = o.id
                        AND d.status = 'pending')),
  deliveries AS (
    DELETE FROM webhook_deliveries d
    WHERE d.account_id = ${account} AND d.subscription_id = ANY (${subscriptions})
      AND d.outbox_id = ANY (ARRAY(SELECT id FROM doomed))
    RETURNING 1),
  events AS (
    DELETE FROM outbox_events o WHERE o.account_id = ${account} AND o.id = ANY (ARRAY(SELECT id FROM doomed))
    RETURNING 1)
  SELECT (SELECT count(*) FROM events)::int AS events, (SELECT count(*) FROM deliveries)::int AS deliveries`;
};

interface LockedEvents {
  /** bigint ids, as pg reads a bigint[] (text): only handed back to the last statement. */
  events: string[];
  lastId: number | null;
  done: boolean;
}

export interface PurgedLog {
  events: number;
  deliveries: number;
}

async function purgeBatch(db: Executor, accountId: number, before: Date, batch: number, after: number) {
  const subscriptions = (await queryRows<{ id: number }>(db, lockSubscriptions(accountId), { prepare: true })).map(
    (row) => row.id,
  );
  const locked = await queryOne<LockedEvents>(db, lockEvents({ accountId, before, batch, after }), { prepare: true });
  if (!locked) throw new Error('the retention batch returned nothing');
  const purged =
    locked.events.length === 0
      ? undefined
      : await queryOne<PurgedLog>(db, deleteBatch(accountId, locked.events, subscriptions), { prepare: true });
  return { ...locked, purged: purged ?? { events: 0, deliveries: 0 } };
}

/**
 * Deletes the webhook log older than `before` (events and their deliveries: docs/webhooks.md), a
 * bounded batch at a time, each batch a short transaction of its own (or the caller's, when `db` has one),
 * so none grows with the log. Safe in every instance at once (SKIP LOCKED). The events of accounts with no
 * subscription go the same way. Every account, or those of `accountIds`; `signal` stops it between batches.
 */
export async function purgeWebhookLog(
  db: Executor,
  before: Date,
  options: { batch?: number; accountIds?: number[]; signal?: AbortSignal } = {},
): Promise<PurgedLog> {
  const batch = options.batch ?? 2_000;
  const total: PurgedLog = { events: 0, deliveries: 0 };
  const accountIds =
    options.accountIds ??
    (await queryRows<{ id: number }>(db, sql`SELECT id FROM accounts ORDER BY id`)).map((row) => row.id);
  for (const accountId of accountIds) {
    for (let after = 0; !options.signal?.aborted;) {
      const result = await inTransaction(db, (tx) => purgeBatch(tx, accountId, before, batch, after));
      total.events += result.purged.events;
      total.deliveries += result.purged.deliveries;
      if (result.done || result.lastId === null) break;
      after = result.lastId;
    }
  }
  return total;
}

/** The deleted subscriptions whose delivery logs are still to delete, oldest first. */
const tombstones = (limit: number) => sql`
  SELECT account_id, subscription_id FROM webhook_subscription_tombstones
  ORDER BY deleted_at, account_id, subscription_id LIMIT ${limit}`;

/**
 * One batch of a deleted subscription's log, in a transaction holding its tombstone (SKIP LOCKED: one
 * instance at a time works a tombstone, so none removes it while another still deletes behind it). A batch
 * that finds nothing left removes the tombstone: the subscription's `DELETE` waited for any fan-out that
 * held it, so no delivery of it can be written after the tombstone appeared.
 */
const clearBatch = (tombstone: { account_id: number; subscription_id: number }, batch: number) => sql`
  WITH tombstone AS (
    SELECT account_id, subscription_id FROM webhook_subscription_tombstones
    WHERE account_id = ${tombstone.account_id} AND subscription_id = ${tombstone.subscription_id} FOR UPDATE SKIP LOCKED),
  -- What this statement's snapshot still sees of the log. Only an empty pick clears the tombstone: rows
  -- another instance deleted after this snapshot was taken are picked, found gone, and not counted, and the
  -- next statement looks again with a fresh snapshot.
  picked AS (
    SELECT ARRAY(SELECT x.id FROM webhook_deliveries x, tombstone t
                 WHERE x.account_id = t.account_id AND x.subscription_id = t.subscription_id LIMIT ${batch}) AS ids),
  gone AS (
    DELETE FROM webhook_deliveries d USING picked WHERE d.account_id = ${tombstone.account_id} AND d.id = ANY (picked.ids)
    RETURNING 1),
  cleared AS (
    DELETE FROM webhook_subscription_tombstones w USING tombstone t, picked p
    WHERE cardinality(p.ids) = 0 AND w.account_id = t.account_id AND w.subscription_id = t.subscription_id
    RETURNING 1)
  SELECT EXISTS (SELECT 1 FROM tombstone) AS held, (SELECT count(*) FROM gone)::int AS deliveries,
    EXISTS (SELECT 1 FROM cleared) AS cleared`;

/**
 * Deletes the delivery logs of deleted subscriptions, a bounded batch per statement; returns how many
 * deliveries went. A tombstone another instance is working on is left to it.
 */
export async function purgeDeletedSubscriptionLogs(
  db: Executor,
  options: { batch?: number; signal?: AbortSignal } = {},
): Promise<number> {
  const batch = options.batch ?? 2_000;
  let deleted = 0;
  const waiting = await queryRows<{ account_id: number; subscription_id: number }>(db, tombstones(100), {
    prepare: true,
  });
  for (const tombstone of waiting) {
    while (!options.signal?.aborted) {
      const result = await queryOne<{ held: boolean; deliveries: number; cleared: boolean }>(
        db,
        clearBatch(tombstone, batch),
        { prepare: true },
      );
      deleted += result?.deliveries ?? 0;
      if (!result?.held || result.cleared) break;
    }
  }
  return deleted;
}

/**
 * Spells that ended before `cutoff` and before the oldest event still waiting for its fan-out: no event the
 * fan-out can still read falls in them (migration 0010).
 */
const pruneSpells = (cutoff: Date) => sql`
  DELETE FROM webhook_subscription_periods p
  WHERE p.disabled_at < least(${cutoff}::timestamptz, (
    SELECT min(o.created_at) FROM outbox_queue q JOIN outbox_events o ON o.account_id = q.account_id AND o.id = q.outbox_id))
  RETURNING 1`;

/** Deletes the ended enabled-spells of webhook subscriptions that no event can fall in any more; returns how many. */
export async function pruneSubscriptionSpells(db: Executor, cutoff: Date): Promise<number> {
  return (await queryRows(db, pruneSpells(cutoff))).length;
}
