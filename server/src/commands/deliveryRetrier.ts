import type { DeliveryRow } from '../presenters/webhook';
import { DELIVERY_COLUMNS } from '../queries/webhookRows';
import { type Executor, queryOne } from '../db/query';
import { sql } from '../db/sql';

/**
 * Schedules an attempt now: a finished delivery gets one more attempt, a pending one is brought forward.
 * The lease is cleared, so an attempt still on the wire cannot overwrite this schedule. The event is
 * share-locked first, so the log's retention and a retry never leave a delivery without its event.
 */
export async function retryDelivery(
  db: Executor,
  input: { accountId: number; subscriptionId: number; deliveryId: number; now: Date },
): Promise<DeliveryRow | undefined> {
  return queryOne<DeliveryRow>(
    db,
    sql`UPDATE webhook_deliveries d
     SET final_attempt = d.final_attempt OR d.status <> 'pending', status = 'pending', next_attempt_at = ${input.now},
         locked_until = NULL, updated_at = ${input.now}
     WHERE d.account_id = ${input.accountId} AND d.subscription_id = ${input.subscriptionId} AND d.id = ${input.deliveryId}
       -- The event share-locked first: the log's retention skips it meanwhile, or (holding it) makes this wait
       -- and then find nothing to revive (webhooks/logRetention.ts). The subscription too: a DELETE that
       -- committed since the route found it leaves nothing to revive (404), one under way waits for this.
       AND EXISTS (SELECT 1 FROM outbox_events o WHERE o.account_id = d.account_id AND o.id = d.outbox_id FOR KEY SHARE)
       AND EXISTS (SELECT 1 FROM webhook_subscriptions s WHERE s.account_id = d.account_id AND s.id = d.subscription_id FOR KEY SHARE)
     RETURNING ${DELIVERY_COLUMNS}`,
  );
}
