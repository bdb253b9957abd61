import { useState } from 'react';
import type { WebhookSubscriptionAnswer } from '../../shared/src/client/manage';
import { manageApi } from '../api';
import { ConfirmDialog } from '../components/ConfirmDialog';
import { ErrorMessage } from '../components/ErrorMessage';
import { LoadMore } from '../components/LoadMore';
import { usePaged } from '../components/usePaged';
import { useWords } from '../language/ConsoleLanguage';
import { useLive } from '../live/LiveData';
import { DeliveryLog } from './DeliveryLog';
import { SubscriptionDialog, eventWords } from './SubscriptionDialog';

type Open = { kind: 'add' } | { kind: 'edit' | 'delete'; subscription: WebhookSubscriptionAnswer } | null;

/** Webhook subscriptions (owners): add, edit, delete, and each one's delivery log with Retry. */
export function WebhooksScreen() {
  const words = useWords();
  const sites = useLive().sites ?? [];
  const list = usePaged(['webhooks'], (cursor) => manageApi.listWebhooks({ cursor, limit: 50 }));
  const [open, setOpen] = useState<Open>(null);
  const [logOf, setLogOf] = useState<WebhookSubscriptionAnswer | null>(null);
  const siteNames = (ids: readonly number[] | null) =>
    ids === null
      ? words.t('common.allSites')
      : ids
          .map(
            (id) =>
              sites.find((site) => site.siteId === id)?.name ?? words.t('common.siteNumbered', { id: String(id) }),
          )
          .join(', ');
  const closeAndReload = () => {
    setOpen(null);
    list.reload();
  };
  return (
    <section aria-labelledby="webhooks-title">
      <div className="page-head">
        <h1 id="webhooks-title">{words.t('nav.webhooks')}</h1>
        <button type="button" className="primary" onClick={() => setOpen({ kind: 'add' })}>
          {words.t('webhooks.add')}
        </button>
      </div>
      <ErrorMessage text={list.error} />
      {list.items?.length === 0 ? <p className="empty">{words.t('webhooks.empty')}</p> : null}
      <ul className="cards">
        {(list.items ?? []).map((subscription) => (
          <li key={subscription.subscriptionId} className="card-row">
            <div className="card-main">
              <strong>{subscription.url}</strong>
              <span className="muted">
                {subscription.description ? `${subscription.description} · ` : ''}
                {siteNames(subscription.siteIds)} ·{' '}
                {subscription.enabled
                  ? words.t('webhooks.enabled')
                  : subscription.disabledReason
                    ? words.t('webhooks.disabledBecause', { reason: subscription.disabledReason })
                    : words.t('webhooks.disabled')}
              </span>
              <span className="muted">{subscription.events.map((kind) => eventWords(words, kind)).join(', ')}</span>
            </div>
            <div className="buttons">
              <button
                type="button"
                onClick={() => setLogOf(subscription)}
                aria-label={words.t('webhooks.logNamed', { url: subscription.url })}
              >
                {words.t('webhooks.log')}
              </button>
              <button
                type="button"
                onClick={() => setOpen({ kind: 'edit', subscription })}
                aria-label={words.t('webhooks.editNamed', { url: subscription.url })}
              >
                {words.t('common.edit')}
              </button>
              <button
                type="button"
                className="danger"
                onClick={() => setOpen({ kind: 'delete', subscription })}
                aria-label={words.t('webhooks.deleteNamed', { url: subscription.url })}
              >
                {words.t('common.delete')}
              </button>
            </div>
          </li>
        ))}
      </ul>
      <LoadMore hasMore={list.hasMore} busy={list.busy} onClick={list.loadMore} />
      {logOf ? <DeliveryLog key={logOf.subscriptionId} subscription={logOf} /> : null}
      {open?.kind === 'add' ? (
        <SubscriptionDialog subscription={null} onClose={() => setOpen(null)} onDone={list.reload} />
      ) : null}
      {open?.kind === 'edit' ? (
        <SubscriptionDialog subscription={open.subscription} onClose={() => setOpen(null)} onDone={closeAndReload} />
      ) : null}
      {open?.kind === 'delete' ? (
        <ConfirmDialog
          title={words.t('webhooks.deleteTitle')}
          message={words.t('webhooks.deleteMessage', { url: open.subscription.url })}
          confirm={words.t('common.delete')}
          onClose={() => setOpen(null)}
          action={(key) => manageApi.deleteWebhook(open.subscription.subscriptionId, key)}
          onDone={() => {
            if (logOf?.subscriptionId === open.subscription.subscriptionId) setLogOf(null);
            closeAndReload();
          }}
        />
      ) : null}
    </section>
  );
}
