import { type FormEvent, useEffect, useId, useRef, useState } from 'react';
import { siteDate } from '../../shared/src/domain/siteDay';
import { ErrorMessage } from '../components/ErrorMessage';
import { SiteFilter } from '../components/SiteFilter';
import { useLive } from '../live/LiveData';
import { personName, statusWord } from '../onSite/rows';
import { useSession } from '../session/SessionContext';
import { type HistoryForm, atSite, exportHref, historyQuery, zoneOf } from './historyQuery';
import { useHistory } from './useHistory';
import './history.css';

const stillThere = new Set(['IN', 'ON_BREAK']);

/** Who was on site during some days (in the site's time zone), and the same visits as a CSV file. */
export function HistoryScreen() {
  const { can } = useSession();
  const live = useLive();
  const list = useHistory();
  const sites = live.sites ?? [];
  const ids = { from: useId(), to: useId(), text: useId() };
  const [form, setForm] = useState<HistoryForm>({ siteId: null, from: '', to: '', text: '' });
  const edit = (change: Partial<HistoryForm>) => setForm((previous) => ({ ...previous, ...change }));
  const zone = zoneOf(sites, form.siteId) ?? sites[0]?.timezone ?? null;

  // Today at the site, once the sites are known (once: emptied fields stay empty until the user types).
  const dated = useRef(false);
  useEffect(() => {
    if (zone === null || dated.current) return;
    dated.current = true;
    const today = siteDate(new Date(), zone);
    setForm((previous) => ({ ...previous, from: previous.from || today, to: previous.to || today }));
  }, [zone]);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const query = historyQuery(sites, form);
    if ('problem' in query) list.fail(query.problem);
    else list.search(query);
  };
  const siteOf = (siteId: number) => sites.find((site) => site.siteId === siteId);
  const query = list.query;

  return (
    <section aria-labelledby="history-title">
      <div className="page-head">
        <h1 id="history-title">History</h1>
        {can.exportHistory && query ? (
          <a className="button-link" href={exportHref(query)} download>
            Export CSV
          </a>
        ) : null}
      </div>
      <form className="history-form" onSubmit={submit} noValidate>
        <SiteFilter sites={sites} value={form.siteId} onChange={(siteId) => edit({ siteId })} />
        <div className="field">
          <label htmlFor={ids.from}>From</label>
          <input id={ids.from} type="date" value={form.from} onChange={(event) => edit({ from: event.target.value })} />
        </div>
        <div className="field">
          <label htmlFor={ids.to}>To</label>
          <input id={ids.to} type="date" value={form.to} onChange={(event) => edit({ to: event.target.value })} />
        </div>
        <div className="field grow">
          <label htmlFor={ids.text}>Search</label>
          <input
            id={ids.text}
            type="search"
            value={form.text}
            placeholder="Name, email or company"
            onChange={(event) => edit({ text: event.target.value })}
          />
        </div>
        <button type="submit" className="primary" disabled={live.sites === null}>
          Search
        </button>
      </form>
      <p className="hint">
        {zone ? `Days are read in the site's time zone (${zone}). ` : ''}A visit is listed when it overlaps the days: it began before
        the end of To, and ended after the start of From, or has not ended.
      </p>
      <ErrorMessage text={list.error ?? live.error} />
      <p className="count" aria-live="polite">
        {list.busy ? 'Searching…' : query ? `${list.rows.length === 1 ? '1 visit' : `${list.rows.length} visits`}${list.more ? ' so far' : ''}` : ''}
      </p>
      {query && list.rows.length === 0 && !list.busy ? <p className="empty">Nobody was on site then.</p> : null}
      {list.rows.length > 0 ? (
        <table className="rows history">
          <thead>
            <tr>
              <th scope="col">Name</th>
              <th scope="col">Company</th>
              <th scope="col">Host</th>
              <th scope="col">Status</th>
              <th scope="col">Entered</th>
              <th scope="col">Left</th>
              {sites.length > 1 ? <th scope="col">Site</th> : null}
            </tr>
          </thead>
          <tbody>
            {list.rows.map((checkin) => {
              const timeZone = siteOf(checkin.siteId)?.timezone ?? query?.timeZone ?? 'UTC';
              return (
                <tr key={checkin.checkinId}>
                  <th scope="row" data-label="Name">{personName(checkin)}</th>
                  <td data-label="Company">{checkin.person.company ?? '—'}</td>
                  <td data-label="Host">{checkin.hostName ?? '—'}</td>
                  <td data-label="Status">
                    <span className={`status status-${checkin.status.toLowerCase()}`}>{statusWord(checkin.status)}</span>
                  </td>
                  <td data-label="Entered">{atSite(checkin.entry.at, timeZone)}</td>
                  <td data-label="Left">
                    {checkin.exit ? atSite(checkin.exit.at, timeZone) : stillThere.has(checkin.status) ? 'Still on site' : '—'}
                  </td>
                  {sites.length > 1 ? <td data-label="Site">{siteOf(checkin.siteId)?.name ?? `Site ${checkin.siteId}`}</td> : null}
                </tr>
              );
            })}
          </tbody>
        </table>
      ) : null}
      {list.more ? (
        <div className="load-more">
          <button type="button" disabled={list.busy} onClick={list.loadMore}>
            Load more
          </button>
        </div>
      ) : null}
    </section>
  );
}
