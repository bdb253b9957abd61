import type { AlertAnswer } from '../../shared/src/client/staff';
import { newKey, staffApi } from '../api';
import { ErrorMessage } from '../components/ErrorMessage';
import { byInstant, since } from '../components/time';
import { siteLookup } from '../live/siteLookup';
import { useAction } from '../components/useAction';
import { useLive } from '../live/LiveData';

const sourceWords: Record<string, string> = {
  watchlist: 'Watchlist match',
  label: 'Blocked vehicle',
  denied: 'Denied',
};

/**
 * What one alert says, in plain words: a stop's cause and reason ("Watchlist match: Trespass notice"); an
 * older form's or a kiosk refusal's own reason, which says it already ("Checked in with an older form:
 * Company missing", "Check-in refused: …").
 */
function alertWords(alert: AlertAnswer): { subject: string; text: string } {
  if (alert.kind === 'kiosk')
    return { subject: `Kiosk: ${alert.subject}`, text: alert.reason ?? 'An action was refused' };
  if (alert.kind === 'form') return { subject: alert.subject, text: alert.reason ?? 'Checked in with an older form' };
  if (alert.kind === 'pass') return { subject: alert.subject, text: alert.reason ?? 'A pass was not honoured' };
  const cause = sourceWords[alert.source] ?? alert.source;
  return { subject: alert.subject, text: alert.reason ? `${cause}: ${alert.reason}` : cause };
}

/**
 * Every alert of the last 24 h on the user's sites, newest first: stops with their reason (shown to staff
 * only), check-ins on an older form, and actions refused to a kiosk.
 */
export function AlertsScreen() {
  const live = useLive();
  const acknowledge = useAction();
  const sites = live.sites ?? [];
  const site = siteLookup(sites);
  const alerts = [...live.alerts].sort((a, b) => byInstant(b.at, a.at));

  const acknowledgeAlert = async (kind: string, checkinId: number) => {
    const done = await acknowledge.run(() => staffApi.acknowledgeAlert(kind, checkinId, newKey()));
    if (done) live.putAlert(done);
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
              <strong className={alert.kind === 'vehicle' ? 'plate' : undefined}>{alertWords(alert).subject}</strong>
              <span>{alertWords(alert).text}</span>
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
