import type { WebhookDeliveryAnswer, WebhookSubscriptionAnswer } from '../../shared/src/client/manage';
import { ListTable } from '../components/ListTable';
import { manageApi, newKey } from '../api';
import { ErrorMessage } from '../components/ErrorMessage';
import { LoadMore } from '../components/LoadMore';
import { since } from '../components/time';
import { useAction } from '../components/useAction';
import { usePaged } from '../components/usePaged';
import type { ConsoleMessage } from '../../shared/src/messages/console';
import type { ConsoleWords } from '../language/consoleWords';
import { useWords } from '../language/ConsoleLanguage';
import { eventWords } from './SubscriptionDialog';

const statusWords: Record<string, ConsoleMessage> = {
  pending: 'deliveries.status.pending',
  delivered: 'deliveries.status.delivered',
  failed: 'deliveries.status.failed',
};

function lastAttempt(words: ConsoleWords, delivery: WebhookDeliveryAnswer): string {
  const last = delivery.attempts.at(-1);
  if (!last) return words.t('deliveries.notTried');
  const answer =
    last.statusCode === null
      ? (last.error ?? words.t('deliveries.noAnswer'))
      : words.t('deliveries.http', { status: String(last.statusCode) });
  return words.t('deliveries.answerAt', { answer, time: since(last.at) });
}

/** One subscription's deliveries, newest first, with Retry for each that failed. */
export function DeliveryLog({ subscription }: { subscription: WebhookSubscriptionAnswer }) {
  const words = useWords();
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
        <h2 id="log-title">{words.t('deliveries.title', { url: subscription.url })}</h2>
        <button type="button" onClick={log.reload}>
          {words.t('deliveries.refresh')}
        </button>
      </div>
      <ErrorMessage text={log.error ?? retry.error} />
      {log.items?.length === 0 ? <p className="empty">{words.t('deliveries.empty')}</p> : null}
      {log.items && log.items.length > 0 ? (
        <ListTable
          rows={log.items}
          rowKey={(delivery) => delivery.deliveryId}
          columns={[
            {
              header: words.t('deliveries.column.event'),
              cell: (delivery) => (
                <>
                  {eventWords(words, delivery.eventType)}{' '}
                  <span className="muted">{words.t('deliveries.at', { time: since(delivery.createdAt) })}</span>
                </>
              ),
            },
            {
              header: words.t('deliveries.column.status'),
              cell: (delivery) => {
                const status = statusWords[delivery.status];
                return status ? words.t(status) : delivery.status;
              },
              className: (delivery) => `status status-${delivery.status}`,
            },
            {
              header: words.t('deliveries.column.attempts'),
              cell: (delivery) =>
                delivery.nextAttemptAt
                  ? words.t('deliveries.attemptsNext', {
                      count: delivery.attempts.length,
                      time: since(delivery.nextAttemptAt),
                    })
                  : words.t('deliveries.attempts', { count: delivery.attempts.length }),
            },
            { header: words.t('deliveries.column.lastAnswer'), cell: (delivery) => lastAttempt(words, delivery) },
          ]}
          actions={(delivery) => (
            <>
              {delivery.status === 'failed' ? (
                <button
                  type="button"
                  disabled={retry.busy}
                  onClick={() => void retryOne(delivery)}
                  aria-label={words.t('deliveries.retryNamed', { id: String(delivery.deliveryId) })}
                >
                  {words.t('deliveries.retry')}
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
