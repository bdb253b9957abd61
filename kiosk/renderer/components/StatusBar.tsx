import { useContext } from 'react';
import type { SyncStatus } from '../../src/sync/status';
import { useObservable } from '../hooks/useObservable';
import { useWords } from '../language/VisitorLanguage';
import { AppUpdateContext } from '../update/AppUpdateContext';

/**
 * Always on screen: Online/Offline (Revoked once the server refused the kiosk's token: nothing is sent, the
 * network does not matter) and how many actions the server has not acknowledged yet; while a newer build
 * waits for the queue to drain, "Update waiting: 3 pending", then "Update ready" until the kiosk is left
 * alone (kiosk/renderer/update/). A live region (role="status"), so a screen reader hears the change without
 * losing its place.
 */
export function StatusBar({
  status,
  note,
  revoked = false,
}: {
  status: SyncStatus | undefined;
  note?: string;
  revoked?: boolean;
}) {
  const words = useWords();
  const online = !revoked && (status?.online ?? navigator.onLine);
  const link = words.t(revoked ? 'status.revoked' : online ? 'status.online' : 'status.offline');
  const updateWaiting = useObservable(useContext(AppUpdateContext)?.waiting) ?? false;
  // What the update waits for: actions on their way, not those in Needs attention (they wait for a person).
  const queued = status ? status.pending - status.attention : 0;
  const synced =
    status &&
    (status.pending === 0 ? words.t('status.allSynced') : words.t('status.pending', { count: status.pending }));
  const progress = note ?? synced ?? words.t('status.starting');
  return (
    <footer className={`status-bar ${online ? 'is-online' : 'is-offline'}`} role="status">
      <span className="status-link">
        <span className="status-dot" aria-hidden="true" />
        {link}
      </span>
      <span className="status-sep" aria-hidden="true">
        ·
      </span>
      <span className="status-pending">
        {updateWaiting && queued > 0 ? words.t('status.updateWaiting', { count: queued }) : progress}
      </span>
      {updateWaiting && queued === 0 ? (
        <>
          <span className="status-sep" aria-hidden="true">
            ·
          </span>
          <span className="status-update">{words.t('status.updateReady')}</span>
        </>
      ) : null}
      {status && status.attention > 0 ? (
        <>
          <span className="status-sep" aria-hidden="true">
            ·
          </span>
          <span className="status-attention">{words.t('status.attention', { count: status.attention })}</span>
        </>
      ) : null}
    </footer>
  );
}
