import { newKey, staffApi } from '../api';
import { ErrorMessage } from '../components/ErrorMessage';
import { since } from '../components/time';
import { siteLookup } from '../live/siteLookup';
import { useAction } from '../components/useAction';
import { useLive } from '../live/LiveData';

const sourceWords: Record<string, string> = {
  watchlist: 'Watchlist match',
  label: 'Blocked vehicle',
  denied: 'Denied',
};

/** Every STOP of the last 24 h on the user's sites, newest first, with its reason (shown to staff only). */
export function AlertsScreen() {
  const live = useLive();
  const acknowledge = useAction();
  const sites = live.sites ?? [];
  const site = siteLookup(sites);
  const alerts = [...live.alerts].sort((a, b) => b.at.localeCompare(a.at));

  const acknowledgeAlert = async (kind: string, checkinId: number) => {
    const done = await acknowledge.run(() => staffApi.acknowledgeAlert(kind, checkinId, newKey()));
    if (done) live.refresh();
  };

  return (
    <section aria-labelledby="alerts-title">
      <h1 id="alerts-title">Alerts</h1>
      <p className="count" aria-live="polite">
        {live.sites === null
          ? 'Loading…'
          : `${live.unacknowledged} not yet acknowledged, ${alerts.length} in the last 24 hours`}
      </p>
      <ErrorMessage text={live.error ?? acknowledge.error} />
      {alerts.length === 0 && live.sites !== null ? <p className="empty">No alerts in the last 24 hours.</p> : null}
      <ul className="cards">
        {alerts.map((alert) => (
          <li
            key={`${alert.kind}-${alert.checkinId}`}
            className={`card-row${alert.acknowledgedAt ? ' done' : ' alert'}`}
          >
            <div className="card-main">
              <strong className={alert.kind === 'vehicle' ? 'plate' : undefined}>{alert.subject}</strong>
              <span>
                {sourceWords[alert.source] ?? alert.source}
                {alert.reason ? `: ${alert.reason}` : ''}
              </span>
              <span className="muted">
                {site.name(alert.siteId)} · {since(alert.at, site.zone(alert.siteId))}
                {alert.acknowledgedAt
                  ? ` · acknowledged${alert.acknowledgedBy ? ` by ${alert.acknowledgedBy.name}` : ''}`
                  : ''}
              </span>
            </div>
            {alert.acknowledgedAt ? null : (
              <button
                type="button"
                disabled={acknowledge.busy}
                onClick={() => void acknowledgeAlert(alert.kind, alert.checkinId)}
              >
                Acknowledge
              </button>
            )}
          </li>
        ))}
      </ul>
    </section>
  );
}
