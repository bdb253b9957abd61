import { useState } from 'react';
import type { WebhookSubscriptionAnswer } from '../../shared/src/client/manage';
import { manageApi } from '../api';
import { ConfirmDialog } from '../components/ConfirmDialog';
import { ErrorMessage } from '../components/ErrorMessage';
import { LoadMore } from '../components/LoadMore';
import { usePaged } from '../components/usePaged';
import { useLive } from '../live/LiveData';
import { DeliveryLog } from './DeliveryLog';
import { SubscriptionDialog, eventWords } from './SubscriptionDialog';

type Open = { kind: 'add' } | { kind: 'edit' | 'delete'; subscription: WebhookSubscriptionAnswer } | null;

/** Webhook subscriptions (owners): add, edit, delete, and each one's delivery log with Retry. */
export function WebhooksScreen() {
  const sites = useLive().sites ?? [];
  const list = usePaged(['webhooks'], (cursor) => manageApi.listWebhooks({ cursor, limit: 50 }));
  const [open, setOpen] = useState<Open>(null);
  const [logOf, setLogOf] = useState<WebhookSubscriptionAnswer | null>(null);
  const siteNames = (ids: readonly number[] | null) =>
    ids === null
      ? 'All sites'
      : ids.map((id) => sites.find((site) => site.siteId === id)?.name ?? `Site ${id}`).join(', ');
  const closeAndReload = () => {
    setOpen(null);
    list.reload();
  };
  return (
    <section aria-labelledby="webhooks-title">
      <div className="page-head">
        <h1 id="webhooks-title">Webhooks</h1>
        <button type="button" className="primary" onClick={() => setOpen({ kind: 'add' })}>
          Add a webhook
        </button>
      </div>
      <ErrorMessage text={list.error} />
      {list.items?.length === 0 ? <p className="empty">No webhooks yet.</p> : null}
      <ul className="cards">
        {(list.items ?? []).map((subscription) => (
          <li key={subscription.subscriptionId} className="card-row">
            <div className="card-main">
              <strong>{subscription.url}</strong>
              <span className="muted">
                {subscription.description ? `${subscription.description} · ` : ''}
                {siteNames(subscription.siteIds)} ·{' '}
                {subscription.enabled
                  ? 'Enabled'
                  : `Disabled${subscription.disabledReason ? `: ${subscription.disabledReason}` : ''}`}
              </span>
              <span className="muted">{subscription.events.map(eventWords).join(', ')}</span>
            </div>
            <div className="buttons">
              <button
                type="button"
                onClick={() => setLogOf(subscription)}
                aria-label={`Delivery log of ${subscription.url}`}
              >
                Delivery log
              </button>
              <button
                type="button"
                onClick={() => setOpen({ kind: 'edit', subscription })}
                aria-label={`Edit ${subscription.url}`}
              >
                Edit
              </button>
              <button
                type="button"
                className="danger"
                onClick={() => setOpen({ kind: 'delete', subscription })}
                aria-label={`Delete ${subscription.url}`}
              >
                Delete
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
          title="Delete webhook"
          message={`Nothing more is sent to ${open.subscription.url}. Its delivery log goes too.`}
          confirm="Delete"
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
