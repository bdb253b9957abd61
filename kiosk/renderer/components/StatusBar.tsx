import type { SyncStatus } from '../../src/sync/status';

/**
 * Always on screen: Online/Offline and how many actions the server has not acknowledged yet. A live
 * region (role="status"), so a screen reader hears the change without losing its place.
 */
export function StatusBar({ status, note }: { status: SyncStatus | undefined; note?: string }) {
  const online = status?.online ?? navigator.onLine;
  return (
    <footer className={`status-bar ${online ? 'is-online' : 'is-offline'}`} role="status">
      <span className="status-link">
        <span className="status-dot" aria-hidden="true" />
        {online ? 'Online' : 'Offline'}
      </span>
      <span className="status-sep" aria-hidden="true">·</span>
      <span className="status-pending">{note ?? status?.text ?? 'Starting…'}</span>
      {status && status.attention > 0 ? (
        <>
          <span className="status-sep" aria-hidden="true">·</span>
          <span className="status-attention">{status.attention} need{status.attention === 1 ? 's' : ''} attention</span>
        </>
      ) : null}
    </footer>
  );
}
