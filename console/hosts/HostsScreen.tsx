import { useEffect, useState } from 'react';
import { ListTable } from '../components/ListTable';
import type { ChannelsAnswer, HostAnswer } from '../../shared/src/client/hosts';
import { hostsApi } from '../api';
import { ConfirmDialog } from '../components/ConfirmDialog';
import { ErrorMessage } from '../components/ErrorMessage';
import { LoadMore } from '../components/LoadMore';
import { usePaged } from '../components/usePaged';
import type { ConsoleMessage } from '../../shared/src/messages/console';
import { useWords } from '../language/ConsoleLanguage';
import { useLive } from '../live/LiveData';
import { siteLookup } from '../live/siteLookup';
import { HostDialog } from './HostDialog';
import { ImportDialog } from './ImportDialog';

const channelWords: Record<string, ConsoleMessage> = { email: 'hosts.channel.email', chat: 'hosts.channel.chat' };

/** The people visitors come to see, and how each is told of a visitor (docs/notifications.md). */
export function HostsScreen() {
  const words = useWords();
  const list = usePaged(['hosts'], (cursor) => hostsApi.listHosts({ cursor, limit: 50 }));
  const live = useLive();
  const site = siteLookup(words, live.sites ?? []);
  // The stream's `hosts` event re-reads the list after a write (console/live/followPages.ts); without it, now.
  const afterWrite = () => {
    if (!live.streaming) list.reload();
  };
  const [channels, setChannels] = useState<ChannelsAnswer | null>(null);
  const [editing, setEditing] = useState<{ host: HostAnswer | null } | null>(null);
  const [importing, setImporting] = useState(false);
  const [deleting, setDeleting] = useState<HostAnswer | null>(null);
  useEffect(() => {
    void hostsApi.channels().then((outcome) => {
      if (outcome.kind === 'ok') setChannels(outcome.value);
    });
  }, []);
  const sitesOf = (host: HostAnswer) =>
    host.allSites ? words.t('common.allSites') : host.siteIds.map(site.name).join(', ');
  return (
    <section aria-labelledby="hosts-title">
      <div className="page-head">
        <h1 id="hosts-title">{words.t('hosts.title')}</h1>
        <div className="buttons">
          <button type="button" onClick={() => setImporting(true)}>
            {words.t('hosts.import')}
          </button>
          <button type="button" className="primary" onClick={() => setEditing({ host: null })}>
            {words.t('hosts.add')}
          </button>
        </div>
      </div>
      {channels && !channels.email.enabled ? (
        <p className="notice" role="note">
          {words.t('hosts.noEmail', { detail: channels.email.detail })}
        </p>
      ) : null}
      <ErrorMessage text={list.error} />
      {list.items?.length === 0 ? <p className="empty">{words.t('hosts.empty')}</p> : null}
      {list.items && list.items.length > 0 ? (
        <ListTable
          rows={list.items}
          rowKey={(host) => host.hostId}
          columns={[
            { header: words.t('hosts.column.name'), cell: (host) => host.name },
            { header: words.t('hosts.column.email'), cell: (host) => host.email ?? '—' },
            { header: words.t('hosts.column.phone'), cell: (host) => host.phone ?? '—' },
            { header: words.t('hosts.column.sites'), cell: (host) => sitesOf(host) },
            {
              header: words.t('hosts.column.toldBy'),
              cell: (host) =>
                host.notifyBy
                  .map((channel) => {
                    const key = channelWords[channel];
                    return key ? words.t(key) : channel;
                  })
                  .join(', ') || words.t('hosts.notTold'),
            },
          ]}
          actions={(host) => (
            <>
              <button
                type="button"
                onClick={() => setEditing({ host })}
                aria-label={words.t('hosts.editNamed', { name: host.name })}
              >
                {words.t('common.edit')}
              </button>
              <button
                type="button"
                className="danger"
                onClick={() => setDeleting(host)}
                aria-label={words.t('hosts.deleteNamed', { name: host.name })}
              >
                {words.t('common.delete')}
              </button>
            </>
          )}
        />
      ) : null}
      <LoadMore hasMore={list.hasMore} busy={list.busy} onClick={list.loadMore} />
      {editing ? (
        <HostDialog
          host={editing.host}
          onClose={() => setEditing(null)}
          onDone={(saved) => {
            setEditing(null);
            list.updateItems((host) => (host.hostId === saved.hostId ? saved : host));
            afterWrite();
          }}
        />
      ) : null}
      {importing ? <ImportDialog onClose={() => setImporting(false)} onDone={afterWrite} /> : null}
      {deleting ? (
        <ConfirmDialog
          title={words.t('hosts.deleteNamed', { name: deleting.name })}
          message={words.t('hosts.deleteMessage')}
          confirm={words.t('common.delete')}
          onClose={() => setDeleting(null)}
          action={(key) => hostsApi.deleteHost(deleting.hostId, key)}
          onDone={() => {
            setDeleting(null);
            afterWrite();
          }}
        />
      ) : null}
    </section>
  );
}
