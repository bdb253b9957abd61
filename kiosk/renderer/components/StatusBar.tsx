import type { SyncStatus } from '../../src/sync/status';

/**
 * Always on screen: Online/Offline (Revoked once the server refused the kiosk's token: nothing is sent, the
 * network does not matter) and how many actions the server has not acknowledged yet. A live region
 * (role="status"), so a screen reader hears the change without losing its place.
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
  const online = !revoked && (status?.online ?? navigator.onLine);
  const link = revoked ? 'Revoked' : online ? 'Online' : 'Offline';
  return (
    <footer className={`status-bar ${online ? 'is-online' : 'is-offline'}`} role="status">
      <span className="status-link">
        <span className="status-dot" aria-hidden="true" />
        {link}
      </span>
      <span className="status-sep" aria-hidden="true">
        ·
      </span>
      <span className="status-pending">{note ?? status?.text ?? 'Starting…'}</span>
      {status && status.attention > 0 ? (
        <>
          <span className="status-sep" aria-hidden="true">
            ·
          </span>
          <span className="status-attention">
            {status.attention} need{status.attention === 1 ? 's' : ''} attention
          </span>
        </>
      ) : null}
    </footer>
  );
}
