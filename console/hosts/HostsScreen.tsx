import { useEffect, useState } from 'react';
import { ListTable } from '../components/ListTable';
import type { ChannelsAnswer, HostAnswer } from '../../shared/src/client/hosts';
import { hostsApi } from '../api';
import { ConfirmDialog } from '../components/ConfirmDialog';
import { ErrorMessage } from '../components/ErrorMessage';
import { LoadMore } from '../components/LoadMore';
import { usePaged } from '../components/usePaged';
import { useLive } from '../live/LiveData';
import { siteLookup } from '../live/siteLookup';
import { HostDialog } from './HostDialog';
import { ImportDialog } from './ImportDialog';

const channelWords: Record<string, string> = { email: 'Email', chat: 'Chat' };

/** The people visitors come to see, and how each is told of a visitor (docs/notifications.md). */
export function HostsScreen() {
  const list = usePaged(['hosts'], (cursor) => hostsApi.listHosts({ cursor, limit: 50 }));
  const live = useLive();
  const site = siteLookup(live.sites ?? []);
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
  const sitesOf = (host: HostAnswer) => (host.allSites ? 'All sites' : host.siteIds.map(site.name).join(', '));
  return (
    <section aria-labelledby="hosts-title">
      <div className="page-head">
        <h1 id="hosts-title">Hosts</h1>
        <div className="buttons">
          <button type="button" onClick={() => setImporting(true)}>
            Import CSV
          </button>
          <button type="button" className="primary" onClick={() => setEditing({ host: null })}>
            Add a host
          </button>
        </div>
      </div>
      {channels && !channels.email.enabled ? (
        <p className="notice" role="note">
          {channels.email.detail}. Hosts told by email are not told until the server is given one; chat still works.
        </p>
      ) : null}
      <ErrorMessage text={list.error} />
      {list.items?.length === 0 ? <p className="empty">No hosts yet. Add one, or import a CSV file.</p> : null}
      {list.items && list.items.length > 0 ? (
        <ListTable
          rows={list.items}
          rowKey={(host) => host.hostId}
          columns={[
            { header: 'Name', cell: (host) => host.name },
            { header: 'Email', cell: (host) => host.email ?? '—' },
            { header: 'Phone', cell: (host) => host.phone ?? '—' },
            { header: 'Sites', cell: (host) => sitesOf(host) },
            {
              header: 'Told by',
              cell: (host) => host.notifyBy.map((channel) => channelWords[channel] ?? channel).join(', ') || 'Not told',
            },
          ]}
          actions={(host) => (
            <>
              <button type="button" onClick={() => setEditing({ host })} aria-label={`Edit ${host.name}`}>
                Edit
              </button>
              <button
                type="button"
                className="danger"
                onClick={() => setDeleting(host)}
                aria-label={`Delete ${host.name}`}
              >
                Delete
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
          title={`Delete ${deleting.name}`}
          message="Kiosks stop offering them and they are told of no more visitors. Past visits keep their name."
          confirm="Delete"
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
