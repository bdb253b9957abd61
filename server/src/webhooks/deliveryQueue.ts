import type { WebhookAttempt } from '../../../shared/src/schemas/webhooks';
import { type Executor, inTransaction, queryOne, queryRows } from '../db/query';
import { type Sql, raw, sql } from '../db/sql';
import { type DeliveryShares, busyShares } from './deliveryShares';

/**
 * The request body a receiver gets, as text made by the database: the outbox payload with its envelope
 * in the documented order (json keeps the order it is built in; jsonb sorts keys its own way), so no
 * delivery parses and re-serializes it.
 */
const BODY =
  raw(`json_build_object('id', o.payload->'id', 'type', o.payload->'type', 'createdAt', o.payload->'createdAt',
  'accountId', o.payload->'accountId', 'siteId', o.payload->'siteId', 'data', o.payload->'data')::text AS body`);

/**
 * Turns a batch of new outbox events into delivery rows for every subscription that asks for the kind and
 * the site and was enabled when the event happened (a disabled one's are parked until it is enabled
 * again), and takes the events off the queue, in one statement. SKIP LOCKED: concurrent dispatchers take
 * disjoint batches; the unique index makes a second fan-out of one event a no-op anyway. Up to `lease`
 * deliveries, within each account's and subscription's share, are inserted already leased to this
 * dispatcher and returned, so a first attempt costs no separate claim; the rest wait for any dispatcher.
 */
const fanOut = (input: FanOutInput & { createdBefore: Date | null }) => sql`
  WITH ${busyShares(input.shares)},
  queued AS (
    DELETE FROM outbox_queue q WHERE q.outbox_id = ANY (ARRAY(
      SELECT head.outbox_id
      FROM (SELECT account_id, outbox_id FROM outbox_queue ORDER BY outbox_id LIMIT ${input.limit} FOR UPDATE SKIP LOCKED) head
      WHERE ${input.createdBefore}::timestamptz IS NULL OR EXISTS (
        SELECT 1 FROM outbox_events o
        WHERE o.account_id = head.account_id AND o.id = head.outbox_id AND o.created_at <= ${input.createdBefore}::timestamptz)))
    RETURNING q.account_id, q.outbox_id),
  -- Each event by its key (a lateral lookup: the plan cannot turn into a scan of the whole outbox).
  -- The body is made once per event here, not once per delivery.
  events AS (
    SELECT o.account_id, o.id, o.event_id, o.type, o.site_id, o.created_at, ${BODY}
    FROM queued q CROSS JOIN LATERAL (
      SELECT * FROM outbox_events o WHERE o.account_id = q.account_id AND o.id = q.outbox_id) o),
  -- The subscriptions of the batch's accounts, share-locked once per batch (deliveries have no foreign key
  -- doing it per row): a subscription being deleted is either waited for and skipped, or its delete waits
  -- for this statement and then deletes what it wrote (routes/webhooks).
  subs AS (
    SELECT s.account_id, s.id, s.events, s.enabled, s.all_sites, s.url, s.secret
    FROM webhook_subscriptions s
    WHERE s.account_id = ANY (ARRAY(SELECT DISTINCT account_id FROM events))
    FOR KEY SHARE),
  -- Whenever the fan-out runs, an event goes to the subscriptions that were enabled when it happened (the
  -- latest of its spells that began before the event, still open then: migration 0010); one disabled
  -- since gets it parked, until it is enabled again.
  matches AS (
    SELECT e.account_id, s.id AS subscription_id, e.id AS outbox_id, e.event_id, e.type, s.enabled,
           row_number() OVER (PARTITION BY s.enabled ORDER BY e.id, s.id) AS n,
           row_number() OVER (PARTITION BY s.enabled, e.account_id ORDER BY e.id, s.id) AS account_n,
           row_number() OVER (PARTITION BY s.enabled, e.account_id, s.id ORDER BY e.id) AS subscription_n
    FROM events e
    JOIN subs s ON s.account_id = e.account_id AND e.type = ANY (s.events)
      AND (SELECT p.disabled_at IS NULL OR e.created_at < p.disabled_at FROM webhook_subscription_periods p
           WHERE p.account_id = s.account_id AND p.subscription_id = s.id AND p.enabled_at <= e.created_at
           ORDER BY p.enabled_at DESC LIMIT 1)
      AND (s.all_sites OR EXISTS (SELECT 1 FROM webhook_subscription_sites ws
           WHERE ws.account_id = s.account_id AND ws.subscription_id = s.id AND ws.site_id = e.site_id))),
  fanned AS (
    INSERT INTO webhook_deliveries (account_id, subscription_id, outbox_id, event_id, event_type, next_attempt_at,
      locked_until, created_at, updated_at)
    SELECT m.account_id, m.subscription_id, m.outbox_id, m.event_id, m.type, CASE WHEN m.enabled THEN now() ELSE 'infinity' END,
           CASE WHEN m.enabled AND m.n <= ${input.lease}
                 AND m.account_n <= ${input.shares.perAccount}::int - coalesce(ba.n, 0)
                 AND m.subscription_n <= ${input.shares.perSubscription}::int - coalesce(bs.n, 0)
             THEN date_trunc('milliseconds', now()) + ${input.leaseMs}::bigint * interval '1 millisecond' END,
           now(), now()
    FROM matches m
    LEFT JOIN busy_accounts ba ON ba.account_id = m.account_id
    LEFT JOIN busy_subscriptions bs ON bs.account_id = m.account_id AND bs.subscription_id = m.subscription_id
    ORDER BY m.enabled DESC, m.n
    ON CONFLICT (account_id, subscription_id, outbox_id) DO NOTHING
    RETURNING account_id, id, subscription_id, outbox_id, event_id, retry_step, final_attempt, locked_until),
  taken AS (SELECT (SELECT count(*) FROM events)::int AS events, (SELECT count(*) FROM fanned)::int AS deliveries)
  SELECT taken.events, taken.deliveries, leased.*
  FROM taken LEFT JOIN (
    SELECT f.account_id, f.id, f.subscription_id, f.event_id, f.retry_step, f.final_attempt, f.locked_until, s.url, s.secret, e.body
    FROM fanned f
    JOIN subs s ON s.account_id = f.account_id AND s.id = f.subscription_id
    JOIN events e ON e.account_id = f.account_id AND e.id = f.outbox_id
    WHERE f.locked_until IS NOT NULL) leased ON true`;

type FanOutRow = { events: number; deliveries: number } & (({ id: number } & ClaimedDelivery) | { id: null });

interface FanOutInput {
  limit: number;
  lease: number;
  leaseMs: number;
  createdBefore?: Date | null;
  shares: DeliveryShares;
}

/**
 * Fans out up to `limit` events (of the queue's oldest `limit`, those created by `createdBefore` when it is
 * given); returns how many events and deliveries it made, and those it leased (at most `lease`).
 */
export async function fanOutEvents(
  db: Executor,
  input: FanOutInput,
): Promise<{ events: number; deliveries: number; leased: ClaimedDelivery[] }> {
  const statement = fanOut({ ...input, createdBefore: input.createdBefore ?? null });
  const rows = await queryRows<FanOutRow>(db, statement, { prepare: true });
  const leased = rows.filter((row): row is FanOutRow & ClaimedDelivery => row.id !== null);
  return { events: rows[0]?.events ?? 0, deliveries: rows[0]?.deliveries ?? 0, leased };
}

/**
 * Leases due deliveries of enabled subscriptions: `locked_until` is set (database time, whole
 * milliseconds so it reads back exactly), and the statement ends, so no lock is held during the HTTP call.
 * A dispatcher that dies leaves the lease to expire; another takes the delivery then.
 *
 * Fair: it looks at the head of every enabled subscription's due queue (at most its share; migration
 * 0015's index), ranks each account's candidates oldest first, and takes every account's first before any
 * account's second, so a tenant with a backlog at a slow receiver does not hold back another's first attempt.
 * An account alone with work due may take more than its share, never the quarter kept for newcomers.
 */
const claim = (limit: number, leaseMs: number, shares: DeliveryShares) => sql`
  WITH ${busyShares(shares)},
  heads AS (
    SELECT h.account_id, h.id, h.next_attempt_at,
           row_number() OVER (PARTITION BY h.account_id ORDER BY h.next_attempt_at, h.id) AS account_rank
    FROM webhook_subscriptions s
    LEFT JOIN busy_subscriptions bs ON bs.account_id = s.account_id AND bs.subscription_id = s.id
    CROSS JOIN LATERAL (
      SELECT d.account_id, d.id, d.next_attempt_at FROM webhook_deliveries d
      WHERE d.account_id = s.account_id AND d.subscription_id = s.id AND d.status = 'pending'
        AND d.next_attempt_at <= clock_timestamp() AND (d.locked_until IS NULL OR d.locked_until < clock_timestamp())
      ORDER BY d.next_attempt_at LIMIT greatest(0, ${shares.perSubscription}::int - coalesce(bs.n, 0))) h
    WHERE s.enabled),
  picked AS (
    SELECT h.account_id, h.id FROM heads h LEFT JOIN busy_accounts ba ON ba.account_id = h.account_id
    WHERE h.account_rank <= CASE WHEN (SELECT count(DISTINCT account_id) FROM heads) = 1
                                 THEN ${shares.perAccountAlone}::int ELSE ${shares.perAccount}::int END - coalesce(ba.n, 0)
    ORDER BY h.account_rank, h.next_attempt_at LIMIT ${limit}),
  -- Each picked row by its key, locked and checked again (another dispatcher may have leased it meanwhile).
  due AS (
    SELECT d.account_id, d.id FROM picked p
    JOIN webhook_deliveries d ON d.account_id = p.account_id AND d.id = p.id
    WHERE d.status = 'pending' AND (d.locked_until IS NULL OR d.locked_until < clock_timestamp())
    FOR UPDATE OF d SKIP LOCKED),
  claimed AS (
    UPDATE webhook_deliveries d
    SET locked_until = date_trunc('milliseconds', clock_timestamp()) + ${leaseMs}::bigint * interval '1 millisecond'
    FROM due WHERE d.account_id = due.account_id AND d.id = due.id
    RETURNING d.account_id, d.id, d.subscription_id, d.outbox_id, d.event_id, d.retry_step, d.final_attempt, d.locked_until)
  SELECT c.account_id, c.id, c.subscription_id, c.event_id, c.retry_step, c.final_attempt, c.locked_until, s.url, s.secret, ${BODY}
  FROM claimed c
  JOIN webhook_subscriptions s ON s.account_id = c.account_id AND s.id = c.subscription_id
  JOIN outbox_events o ON o.account_id = c.account_id AND o.id = c.outbox_id`;

/** A delivery this dispatcher holds the lease of, with what sending it needs. */
export interface ClaimedDelivery {
  account_id: number;
  id: number;
  subscription_id: number;
  event_id: string;
  retry_step: number;
  final_attempt: boolean;
  /** The lease: recording the attempt only counts while it is still this value. */
  locked_until: Date;
  url: string;
  secret: string;
  /** The JSON body to send, exactly as signed. */
  body: string;
}

/** Leases up to `limit` due deliveries within the shares (none given: one dispatcher's worth, nothing held back). */
export async function claimDueDeliveries(
  db: Executor,
  limit: number,
  leaseMs: number,
  shares: DeliveryShares = unshared(limit),
): Promise<ClaimedDelivery[]> {
  return queryRows<ClaimedDelivery>(db, claim(limit, leaseMs, shares), { prepare: true });
}

/** Shares that hold nothing back: every account and subscription may take all `limit`. */
const unshared = (limit: number): DeliveryShares => ({
  perAccount: limit,
  perAccountAlone: limit,
  perSubscription: limit,
  accounts: new Map(),
  subscriptions: new Map(),
});

/** The delivery and lease an outcome is for. */
interface LeasedDelivery {
  accountId: number;
  deliveryId: number;
  /** `locked_until` as claimed: the outcome is written only while the row still has it. */
  lease: string;
}

/** The outcome of one attempt, as the record statement takes it. */
export interface AttemptedRecord extends LeasedDelivery {
  attempted: true;
  status: 'pending' | 'delivered' | 'failed';
  attempt: WebhookAttempt;
  retryStep: number;
  /** For `pending`: when to try again, from now. */
  waitMs: number | null;
  disableSubscription: boolean;
}

/**
 * A lease given back unused: the request was never sent (it found no connection in time), so the delivery
 * is due again as it was, with no attempt logged and no retry step spent.
 */
export interface ReleasedRecord extends LeasedDelivery {
  attempted: false;
}

export type AttemptRecord = AttemptedRecord | ReleasedRecord;

/**
 * Writes a batch of attempt outcomes and released leases, and disables the subscriptions whose receiver
 * answered 410, in one statement. A row whose lease was lost (expired and taken by another dispatcher, or
 * cleared by a manual retry) is left alone: that dispatcher's outcome, or the retry's schedule, counts.
 * A released row keeps its status, attempts, retry step and final-attempt flag, and is due at once (behind
 * the deliveries that were due before it).
 */
const record = (records: AttemptRecord[]) => sql`
  WITH r AS (
    SELECT * FROM jsonb_to_recordset(${JSON.stringify(records)}::jsonb) AS r(
      "accountId" int, "deliveryId" bigint, lease timestamptz, attempted boolean, status text, attempt jsonb,
      "retryStep" int, "waitMs" bigint, "disableSubscription" boolean)),
  updated AS (
    UPDATE webhook_deliveries d
    SET status = CASE WHEN r.attempted THEN r.status ELSE d.status END,
        attempts = CASE WHEN r.attempted THEN d.attempts || jsonb_build_array(r.attempt) ELSE d.attempts END,
        retry_step = CASE WHEN r.attempted THEN r."retryStep" ELSE d.retry_step END,
        -- Not parked even when the subscription was disabled meanwhile: a park decided on this statement's
        -- view could race an enable and stay parked for good. The claim's check skips such a delivery; there
        -- are at most as many as attempts were out when the subscription was disabled.
        next_attempt_at = CASE WHEN NOT r.attempted THEN clock_timestamp()
          WHEN r.status = 'pending' THEN clock_timestamp() + r."waitMs" * interval '1 millisecond' END,
        locked_until = NULL, final_attempt = CASE WHEN r.attempted THEN false ELSE d.final_attempt END,
        updated_at = clock_timestamp()
    FROM r WHERE d.account_id = r."accountId" AND d.id = r."deliveryId" AND d.locked_until = r.lease
      -- The batch's ids as an index condition too: the plan cannot turn into a scan of every delivery.
      AND d.id = ANY (ARRAY(SELECT "deliveryId" FROM r)) AND d.account_id = ANY (ARRAY(SELECT "accountId" FROM r))
    RETURNING d.account_id, d.subscription_id, r.attempted AND r."disableSubscription" AS disable),
  disabled AS (
    UPDATE webhook_subscriptions s
    SET enabled = false, disabled_reason = 'The receiver answered 410 Gone.', updated_at = clock_timestamp()
    FROM (SELECT DISTINCT account_id, subscription_id FROM updated WHERE disable) g
    WHERE s.account_id = g.account_id AND s.id = g.subscription_id AND s.enabled)
  SELECT count(*)::int AS recorded FROM updated`;

/**
 * Locks the subscriptions of the given deliveries (in key order, so two dispatchers cannot lock two of them
 * crosswise) for the update that disables them.
 */
const lockSubscriptions = (records: AttemptRecord[]) => sql`
  SELECT s.account_id, s.id FROM webhook_subscriptions s
  WHERE (s.account_id, s.id) IN (
    SELECT d.account_id, d.subscription_id
    FROM jsonb_to_recordset(${JSON.stringify(records)}::jsonb) AS r("accountId" int, "deliveryId" bigint)
    JOIN webhook_deliveries d ON d.account_id = r."accountId" AND d.id = r."deliveryId")
  ORDER BY s.account_id, s.id
  FOR NO KEY UPDATE OF s`;

/**
 * Takes the pending deliveries of the subscriptions (as locked above) that a batch disabled out of the due
 * range (next attempt at 'infinity', as disabling through the API does), so claims do not read past them;
 * enabling makes them due.
 */
/**
 * SQL over `d`: a pending delivery no dispatcher holds a lease on at `at`. Disabling, enabling or deleting
 * a subscription moves only these in or out of the due range; a leased one is left to its dispatcher, so
 * those statements never lock the rows a record statement does (the claim's check skips it afterwards).
 */
export const unleasedPendingSql = (at: Sql): Sql =>
  sql`d.status = 'pending' AND (d.locked_until IS NULL OR d.locked_until < ${at})`;

const pauseDisabled = (subscriptions: Array<{ account_id: number; id: number }>) => sql`
  UPDATE webhook_deliveries d SET next_attempt_at = 'infinity', updated_at = clock_timestamp()
  FROM webhook_subscriptions s
  WHERE (s.account_id, s.id) IN (
      SELECT * FROM unnest(${subscriptions.map((row) => row.account_id)}::int[], ${subscriptions.map((row) => row.id)}::int[]))
    AND NOT s.enabled AND d.account_id = s.account_id AND d.subscription_id = s.id
    AND ${unleasedPendingSql(sql`clock_timestamp()`)} AND d.next_attempt_at < 'infinity'`;

const answeredGone = (record: AttemptRecord): boolean => record.attempted && record.disableSubscription;

/**
 * Records attempt outcomes and released leases; returns how many still held their lease. A batch with a
 * 410 in it first locks the subscriptions it disables, in a transaction of its own: every other writer
 * (deleting a subscription, changing it) locks the subscription before its deliveries, and the record
 * statement alone would lock them the other way round, a deadlock with a concurrent DELETE.
 */
export async function recordAttempts(db: Executor, records: AttemptRecord[]): Promise<number> {
  if (records.length === 0) return 0;
  const gone = records.filter(answeredGone);
  if (gone.length === 0) return writeRecords(db, records);
  return inTransaction(db, async (tx) => {
    const locked = await queryRows<{ account_id: number; id: number }>(tx, lockSubscriptions(gone), { prepare: true });
    const recorded = await writeRecords(tx, records);
    await queryRows(tx, pauseDisabled(locked), { prepare: true });
    return recorded;
  });
}

async function writeRecords(db: Executor, records: AttemptRecord[]): Promise<number> {
  const row = await queryOne<{ recorded: number }>(db, record(records), { prepare: true });
  return row?.recorded ?? 0;
}

/** Undispatched events plus deliveries still to make for enabled subscriptions: the work waiting. */
export async function countBacklog(db: Executor): Promise<number> {
  const row = await queryOne<{ backlog: number }>(
    db,
    sql`SELECT ((SELECT count(*) FROM outbox_queue)
           + (SELECT count(*) FROM webhook_deliveries d WHERE d.status = 'pending' AND d.next_attempt_at < 'infinity'
              AND EXISTS (SELECT 1 FROM webhook_subscriptions s
                          WHERE s.account_id = d.account_id AND s.id = d.subscription_id AND s.enabled)))::int AS backlog`,
  );
  return row?.backlog ?? 0;
}
