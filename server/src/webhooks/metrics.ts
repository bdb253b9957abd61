import type { Executor } from '../db/query';
import { countBacklog } from './deliveryQueue';

/**
 * For `gatehouse_outbox_pending` (docs/operations.md, Observability): the events not yet delivered, i.e. outbox events not yet
 * fanned out plus deliveries still pending for enabled subscriptions (first attempt or a retry to come).
 * The database's number, the same from every instance. Delivery results are counted by the dispatcher's
 * `onResult` (main.ts feeds `gatehouse_webhook_deliveries_total{result}` with it).
 */
export async function webhookBacklog(db: Executor): Promise<number> {
  return countBacklog(db);
}
