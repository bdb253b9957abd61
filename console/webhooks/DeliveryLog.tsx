import type { WebhookDeliveryAnswer, WebhookSubscriptionAnswer } from '../../shared/src/client/manage';
import { ListTable } from '../components/ListTable';
import { manageApi, newKey } from '../api';
import { ErrorMessage } from '../components/ErrorMessage';
import { LoadMore } from '../components/LoadMore';
import { since } from '../components/time';
import { useAction } from '../components/useAction';
import { usePaged } from '../components/usePaged';
import { eventWords } from './SubscriptionDialog';

const statusWords: Record<string, string> = { pending: 'Pending', delivered: 'Delivered', failed: 'Failed' };

function lastAttempt(delivery: WebhookDeliveryAnswer): string {
  const last = delivery.attempts.at(-1);
  if (!last) return 'Not tried yet';
  const answer = last.statusCode === null ? (last.error ?? 'no answer') : `HTTP ${last.statusCode}`;
  return `${answer} at ${since(last.at)}`;
}

/** One subscription's deliveries, newest first, with Retry for each that failed. */
export function DeliveryLog({ subscription }: { subscription: WebhookSubscriptionAnswer }) {
  const { subscriptionId } = subscription;
  const log = usePaged(['deliveries', subscriptionId], (cursor) =>
    manageApi.listDeliveries(subscriptionId, { cursor, limit: 50 }),
  );
  const retry = useAction();
  const retryOne = async (delivery: WebhookDeliveryAnswer) => {
    const after = await retry.run(() => manageApi.retryDelivery(subscriptionId, delivery.deliveryId, newKey()));
    if (after) log.updateItems((item) => (item.deliveryId === after.deliveryId ? after : item));
  };
  return (
    <section className="sub" aria-labelledby="log-title">
      <div className="page-head">
        <h2 id="log-title">Delivery log: {subscription.url}</h2>
        <button type="button" onClick={log.reload}>
          Refresh
        </button>
      </div>
      <ErrorMessage text={log.error ?? retry.error} />
      {log.items?.length === 0 ? <p className="empty">Nothing was sent yet.</p> : null}
      {log.items && log.items.length > 0 ? (
        <ListTable
          rows={log.items}
          rowKey={(delivery) => delivery.deliveryId}
          columns={[
            {
              header: 'Event',
              cell: (delivery) => (
                <>
                  {eventWords(delivery.eventType)} <span className="muted">({since(delivery.createdAt)})</span>
                </>
              ),
            },
            {
              header: 'Status',
              cell: (delivery) => statusWords[delivery.status] ?? delivery.status,
              className: (delivery) => `status status-${delivery.status}`,
            },
            {
              header: 'Attempts',
              cell: (delivery) =>
                `${delivery.attempts.length}${delivery.nextAttemptAt ? `, next at ${since(delivery.nextAttemptAt)}` : ''}`,
            },
            { header: 'Last answer', cell: (delivery) => lastAttempt(delivery) },
          ]}
          actions={(delivery) => (
            <>
              {delivery.status === 'failed' ? (
                <button
                  type="button"
                  disabled={retry.busy}
                  onClick={() => void retryOne(delivery)}
                  aria-label={`Retry delivery ${delivery.deliveryId}`}
                >
                  Retry
                </button>
              ) : null}
            </>
          )}
        />
      ) : null}
      <LoadMore hasMore={log.hasMore} busy={log.busy} onClick={log.loadMore} />
    </section>
  );
}
