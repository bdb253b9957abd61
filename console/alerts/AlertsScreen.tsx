import type { AlertAnswer } from '../../shared/src/client/staff';
import type { ConsoleMessage } from '../../shared/src/messages/console';
import { newKey, staffApi } from '../api';
import { ErrorMessage } from '../components/ErrorMessage';
import { byInstant, since } from '../components/time';
import { siteLookup } from '../live/siteLookup';
import { useAction } from '../components/useAction';
import type { ConsoleWords } from '../language/consoleWords';
import { useWords } from '../language/ConsoleLanguage';
import { useLive } from '../live/LiveData';

const sourceWords: Record<string, ConsoleMessage> = {
  watchlist: 'alerts.source.watchlist',
  label: 'alerts.source.label',
  denied: 'alerts.source.denied',
};

/**
 * What one alert says, in plain words: a stop's cause and reason ("Watchlist match: Trespass notice"); an
 * older form's or a kiosk refusal's own reason, which says it already ("Checked in with an older form:
 * Company missing", "Check-in refused: …").
 */
function alertWords(words: ConsoleWords, alert: AlertAnswer): { subject: string; text: string } {
  if (alert.kind === 'kiosk')
    return {
      subject: words.t('alerts.kiosk', { subject: alert.subject }),
      text: alert.reason ?? words.t('alerts.kioskRefused'),
    };
  if (alert.kind === 'form') return { subject: alert.subject, text: alert.reason ?? words.t('alerts.olderForm') };
  if (alert.kind === 'pass') return { subject: alert.subject, text: alert.reason ?? words.t('alerts.passRefused') };
  const source = sourceWords[alert.source];
  const cause = source ? words.t(source) : alert.source;
  return {
    subject: alert.subject,
    text: alert.reason ? words.t('alerts.because', { cause, reason: alert.reason }) : cause,
  };
}

/**
 * Every alert of the last 24 h on the user's sites, newest first: stops with their reason (shown to staff
 * only), check-ins on an older form, and actions refused to a kiosk.
 */
export function AlertsScreen() {
  const words = useWords();
  const live = useLive();
  const acknowledge = useAction();
  const sites = live.sites ?? [];
  const site = siteLookup(words, sites);
  const alerts = [...live.alerts].sort((a, b) => byInstant(b.at, a.at));

  const acknowledgeAlert = async (kind: string, checkinId: number) => {
    const done = await acknowledge.run(() => staffApi.acknowledgeAlert(kind, checkinId, newKey()));
    if (done) live.putAlert(done);
  };

  return (
    <section aria-labelledby="alerts-title">
      <h1 id="alerts-title">{words.t('nav.alerts')}</h1>
      <p className="count" aria-live="polite">
        {live.sites === null
          ? words.t('common.loading')
          : words.t('alerts.count', { unacknowledged: live.unacknowledged, count: alerts.length })}
      </p>
      <ErrorMessage text={live.error ?? acknowledge.error} />
      {alerts.length === 0 && live.sites !== null ? <p className="empty">{words.t('alerts.empty')}</p> : null}
      <ul className="cards">
        {alerts.map((alert) => (
          <li
            key={`${alert.kind}-${alert.checkinId}`}
            className={`card-row${alert.acknowledgedAt ? ' done' : ' alert'}`}
          >
            <div className="card-main">
              <strong className={alert.kind === 'vehicle' ? 'plate' : undefined}>
                {alertWords(words, alert).subject}
              </strong>
              <span>{alertWords(words, alert).text}</span>
              <span className="muted">
                {site.name(alert.siteId)} · {since(alert.at, site.zone(alert.siteId))}
                {alert.acknowledgedAt
                  ? ` · ${
                      alert.acknowledgedBy
                        ? words.t('alerts.acknowledgedBy', { name: alert.acknowledgedBy.name })
                        : words.t('alerts.acknowledged')
                    }`
                  : ''}
              </span>
            </div>
            {alert.acknowledgedAt ? null : (
              <button
                type="button"
                disabled={acknowledge.busy}
                onClick={() => void acknowledgeAlert(alert.kind, alert.checkinId)}
              >
                {words.t('alerts.acknowledge')}
              </button>
            )}
          </li>
        ))}
      </ul>
    </section>
  );
}
