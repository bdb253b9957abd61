import { randomBytes } from 'node:crypto';
import { type Sql, empty, sql } from '../db/sql';

/** One webhook event, built in the command and written by the same statement as the change (docs/webhooks.md). */
export interface OutboxEvent {
  event_id: string;
  type: string;
  payload: {
    id: string;
    type: string;
    createdAt: string;
    accountId: number;
    siteId: number;
    data: Record<string, unknown>;
  };
}

/** Entropy drawn in bulk, as `randomUUID` does: an event id costs a slice of it, not a call into OpenSSL. */
const ENTROPY_BYTES = 4096;
const ID_BYTES = 16;
let entropy = randomBytes(ENTROPY_BYTES);
let used = 0;

/** 128 random bits, base64url. */
function randomId(): string {
  if (used + ID_BYTES > ENTROPY_BYTES) {
    entropy = randomBytes(ENTROPY_BYTES);
    used = 0;
  }
  const id = entropy.toString('base64url', used, used + ID_BYTES);
  used += ID_BYTES;
  return id;
}

/** An event of `type` about a site, carrying `data` as it is after the change. */
export function outboxEvent(input: {
  type: string;
  accountId: number;
  siteId: number;
  now: Date;
  data: Record<string, unknown>;
}): OutboxEvent {
  const id = `evt_${randomId()}`;
  return {
    event_id: id,
    type: input.type,
    payload: {
      id,
      type: input.type,
      createdAt: input.now.toISOString(),
      accountId: input.accountId,
      siteId: input.siteId,
      data: input.data,
    },
  };
}

/**
 * A CTE that inserts the events passed as one jsonb parameter (a trigger queues each for the webhook
 * fan-out: migration 0006); appended to a write statement so the change and its events are one statement.
 * `onlyIf` holds the events back when the change did not happen (an `INSERT … ON CONFLICT DO NOTHING`).
 */
export function outboxInsertCte(
  input: { accountId: number; siteId: number; at: Date; events: OutboxEvent[] },
  onlyIf?: Sql,
): Sql {
  return sql`outbox AS (
    INSERT INTO outbox_events (account_id, event_id, site_id, type, payload, created_at)
    SELECT ${input.accountId}::integer, e.event_id, ${input.siteId}::integer, e.type, e.payload, ${input.at}::timestamptz
    FROM jsonb_to_recordset(${JSON.stringify(input.events)}::jsonb) AS e(event_id text, type text, payload jsonb)
    ${onlyIf ? sql`WHERE ${onlyIf}` : empty})`;
}
