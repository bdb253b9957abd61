import { type FormEvent, useEffect, useId, useMemo, useRef, useState } from 'react';
import { siteDate } from '../../shared/src/domain/siteDay';
import { ErrorMessage } from '../components/ErrorMessage';
import { LoadMore } from '../components/LoadMore';
import { SiteFilter } from '../components/SiteFilter';
import type { ConsoleMessage } from '../../shared/src/messages/console';
import { useWords } from '../language/ConsoleLanguage';
import { useLive } from '../live/LiveData';
import { useSession } from '../session/SessionContext';
import { type HistoryForm, type HistoryKind, exportHref, historyQuery, zoneOf } from './historyQuery';
import { HistoryTable } from './HistoryTable';
import { useHistory } from './useHistory';
import './history.css';

const placeholders: Record<HistoryKind, ConsoleMessage> = {
  people: 'history.search.people',
  vehicles: 'history.search.vehicles',
};

/** Who was on site during some days (in the site's time zone), and the same visits as a CSV file. */
export function HistoryScreen() {
  const { can } = useSession();
  const words = useWords();
  const live = useLive();
  const list = useHistory();
  const sites = useMemo(() => live.sites ?? [], [live.sites]);
  const ids = { kind: useId(), from: useId(), to: useId(), text: useId() };
  const [form, setForm] = useState<HistoryForm>({ kind: 'people', siteId: null, from: '', to: '', text: '' });
  const edit = (change: Partial<HistoryForm>) => setForm((previous) => ({ ...previous, ...change }));
  const zone = zoneOf(sites, form.siteId);

  // Once the sites are known: sites in several zones start with the first chosen (days need one zone), and
  // both dates are today there. Once only: emptied fields stay empty until the user types.
  const started = useRef(false);
  useEffect(() => {
    const first = sites[0];
    if (!first || started.current) return;
    started.current = true;
    const oneZone = zoneOf(sites, null) !== null;
    const today = siteDate(new Date(), first.timezone);
    setForm((previous) => ({
      ...previous,
      siteId: previous.siteId ?? (oneZone ? null : first.siteId),
      from: previous.from || today,
      to: previous.to || today,
    }));
  }, [sites]);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const query = historyQuery(words, sites, form);
    if ('problem' in query) list.fail(query.problem);
    else list.search(query);
  };
  const query = list.query;

  return (
    <section aria-labelledby="history-title">
      <div className="page-head">
        <h1 id="history-title">{words.t('nav.history')}</h1>
        {can.exportHistory && query ? (
          <a className="button-link" href={exportHref(query)} download>
            {words.t('history.export')}
          </a>
        ) : null}
      </div>
      <form className="history-form" onSubmit={submit} noValidate>
        {can.vehicles ? (
          <div className="field">
            <label htmlFor={ids.kind}>{words.t('history.show')}</label>
            <select
              id={ids.kind}
              value={form.kind}
              onChange={(event) => edit({ kind: event.target.value === 'vehicles' ? 'vehicles' : 'people' })}
            >
              <option value="people">{words.t('history.show.people')}</option>
              <option value="vehicles">{words.t('history.show.vehicles')}</option>
            </select>
          </div>
        ) : null}
        <SiteFilter sites={sites} value={form.siteId} onChange={(siteId) => edit({ siteId })} />
        <div className="field">
          <label htmlFor={ids.from}>{words.t('history.from')}</label>
          <input id={ids.from} type="date" value={form.from} onChange={(event) => edit({ from: event.target.value })} />
        </div>
        <div className="field">
          <label htmlFor={ids.to}>{words.t('history.to')}</label>
          <input id={ids.to} type="date" value={form.to} onChange={(event) => edit({ to: event.target.value })} />
        </div>
        <div className="field grow">
          <label htmlFor={ids.text}>{words.t('history.search')}</label>
          <input
            id={ids.text}
            type="search"
            value={form.text}
            placeholder={words.t(placeholders[form.kind])}
            onChange={(event) => edit({ text: event.target.value })}
          />
        </div>
        <button type="submit" className="primary" disabled={live.sites === null}>
          {words.t('history.search')}
        </button>
      </form>
      <p className="hint">{zone ? words.t('history.hintZone', { zone }) : words.t('history.hint')}</p>
      <ErrorMessage text={list.error ?? live.error} />
      <p className="count" aria-live="polite">
        {list.busy
          ? words.t('history.searching')
          : query
            ? words.t(list.more ? 'history.countSoFar' : 'history.count', { count: list.rows.length })
            : ''}
      </p>
      {query && list.rows.length === 0 && !list.busy ? (
        <p className="empty">
          {query.kind === 'people' ? words.t('history.empty.people') : words.t('history.empty.vehicles')}
        </p>
      ) : null}
      {query && list.rows.length > 0 ? <HistoryTable query={query} rows={list.rows} sites={sites} /> : null}
      <LoadMore hasMore={list.more} busy={list.busy} onClick={list.loadMore} />
    </section>
  );
}
