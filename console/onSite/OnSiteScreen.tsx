import { useState } from 'react';
import { ListTable } from '../components/ListTable';
import { api, newKey } from '../api';
import { ErrorMessage } from '../components/ErrorMessage';
import { SiteFilter } from '../components/SiteFilter';
import { since } from '../components/time';
import { siteLookup } from '../live/siteLookup';
import { useAction } from '../components/useAction';
import { useWords } from '../language/ConsoleLanguage';
import { useLive } from '../live/LiveData';
import { useSession } from '../session/SessionContext';
import { CheckInDialog } from './CheckInDialog';
import { type OnSiteRow, onSiteCount, onSiteRows, statusWord } from './rows';
import { printBadge } from './printBadge';
import { HostTold } from './HostTold';

/** Everyone on the user's sites now, kept current by the live poller; check out, or check a visitor in by hand. */
export function OnSiteScreen() {
  const { can } = useSession();
  const words = useWords();
  const live = useLive();
  const [siteId, setSiteId] = useState<number | null>(null);
  const [checkingIn, setCheckingIn] = useState(false);
  const checkout = useAction();
  const [badgeError, setBadgeError] = useState<string | null>(null);
  const sites = live.sites ?? [];
  const rows = onSiteRows(live.people, live.vehicles, siteId);
  const site = siteLookup(words, sites);

  const checkOut = async (row: OnSiteRow) => {
    const done = await checkout.run(() => api.checkoutPerson(row.siteId, row.checkinId, {}, newKey()));
    if (done) live.putVisit(done);
  };
  // Admitted visitors of sites that print badges (a PENDING one gets its badge once approved, docs/api.md).
  const badgeFor = (row: OnSiteRow) =>
    row.kind === 'person' &&
    (row.status === 'IN' || row.status === 'ON_BREAK') &&
    sites.find((candidate) => candidate.siteId === row.siteId)?.badge.enabled === true;
  const print = async (row: OnSiteRow) => {
    setBadgeError(null);
    setBadgeError(await printBadge(words, row));
  };

  return (
    <section aria-labelledby="on-site-title">
      <div className="page-head">
        <h1 id="on-site-title">{words.t('nav.onSite')}</h1>
        {can.checkInOut && sites.length > 0 ? (
          <button type="button" className="primary" onClick={() => setCheckingIn(true)}>
            {words.t('onSite.checkIn')}
          </button>
        ) : null}
      </div>
      <div className="toolbar">
        <SiteFilter sites={sites} value={siteId} onChange={setSiteId} />
        <p className="count" aria-live="polite">
          {live.sites === null ? words.t('common.loading') : onSiteCount(words, rows)}
        </p>
      </div>
      <ErrorMessage text={live.error ?? checkout.error ?? badgeError} />
      {rows.length === 0 && live.sites !== null ? <p className="empty">{words.t('onSite.empty')}</p> : null}
      {rows.length > 0 ? (
        <ListTable
          rows={rows}
          rowKey={(row) => row.key}
          columns={[
            {
              header: words.t('onSite.column.name'),
              cell: (row) => (row.kind === 'vehicle' ? <span className="plate">{row.name}</span> : row.name),
            },
            {
              header: words.t('onSite.column.company'),
              cell: (row) => row.company ?? '—',
              label: (row) =>
                row.kind === 'vehicle' ? words.t('onSite.column.driver') : words.t('onSite.column.company'),
            },
            {
              header: words.t('onSite.column.host'),
              cell: (row) => (
                <>
                  {row.host ?? '—'}
                  <HostTold row={row} />
                </>
              ),
            },
            {
              header: words.t('onSite.column.status'),
              cell: (row) => (
                <span className={`status status-${row.status.toLowerCase()}`}>{statusWord(words, row.status)}</span>
              ),
            },
            { header: words.t('onSite.column.since'), cell: (row) => since(row.since, site.zone(row.siteId)) },
            sites.length > 1 && { header: words.t('common.site'), cell: (row) => site.name(row.siteId) },
          ]}
          actions={(row) => (
            <>
              {badgeFor(row) ? (
                <button type="button" onClick={() => void print(row)}>
                  {words.t('onSite.printBadge')}
                </button>
              ) : null}
              {can.checkInOut && row.kind === 'person' && row.status !== 'PENDING' ? (
                <button type="button" disabled={checkout.busy} onClick={() => void checkOut(row)}>
                  {words.t('onSite.checkOut')}
                </button>
              ) : null}
            </>
          )}
        />
      ) : null}
      {checkingIn ? (
        <CheckInDialog
          sites={sites}
          initialSiteId={siteId ?? sites[0]?.siteId ?? null}
          onClose={() => setCheckingIn(false)}
          onDone={(created) => {
            setCheckingIn(false);
            live.putVisit(created);
          }}
        />
      ) : null}
    </section>
  );
}
