import { useState } from 'react';
import { ListTable } from '../components/ListTable';
import { api, newKey } from '../api';
import { ErrorMessage } from '../components/ErrorMessage';
import { SiteFilter } from '../components/SiteFilter';
import { since } from '../components/time';
import { siteLookup } from '../live/siteLookup';
import { useAction } from '../components/useAction';
import { useLive } from '../live/LiveData';
import { useSession } from '../session/SessionContext';
import { CheckInDialog } from './CheckInDialog';
import { type OnSiteRow, onSiteCount, onSiteRows, statusWord } from './rows';
import { printBadge } from './printBadge';
import { HostTold } from './HostTold';

/** Everyone on the user's sites now, kept current by the live poller; check out, or check a visitor in by hand. */
export function OnSiteScreen() {
  const { can } = useSession();
  const live = useLive();
  const [siteId, setSiteId] = useState<number | null>(null);
  const [checkingIn, setCheckingIn] = useState(false);
  const checkout = useAction();
  const [badgeError, setBadgeError] = useState<string | null>(null);
  const sites = live.sites ?? [];
  const rows = onSiteRows(live.people, live.vehicles, siteId);
  const site = siteLookup(sites);

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
    setBadgeError(await printBadge(row));
  };

  return (
    <section aria-labelledby="on-site-title">
      <div className="page-head">
        <h1 id="on-site-title">On site now</h1>
        {can.checkInOut && sites.length > 0 ? (
          <button type="button" className="primary" onClick={() => setCheckingIn(true)}>
            Check in a visitor
          </button>
        ) : null}
      </div>
      <div className="toolbar">
        <SiteFilter sites={sites} value={siteId} onChange={setSiteId} />
        <p className="count" aria-live="polite">
          {live.sites === null ? 'Loading…' : onSiteCount(rows)}
        </p>
      </div>
      <ErrorMessage text={live.error ?? checkout.error ?? badgeError} />
      {rows.length === 0 && live.sites !== null ? <p className="empty">Nobody is on site.</p> : null}
      {rows.length > 0 ? (
        <ListTable
          rows={rows}
          rowKey={(row) => row.key}
          columns={[
            {
              header: 'Name',
              cell: (row) => (row.kind === 'vehicle' ? <span className="plate">{row.name}</span> : row.name),
            },
            {
              header: 'Company',
              cell: (row) => row.company ?? '—',
              label: (row) => (row.kind === 'vehicle' ? 'Driver' : 'Company'),
            },
            {
              header: 'Host',
              cell: (row) => (
                <>
                  {row.host ?? '—'}
                  <HostTold row={row} />
                </>
              ),
            },
            {
              header: 'Status',
              cell: (row) => (
                <span className={`status status-${row.status.toLowerCase()}`}>{statusWord(row.status)}</span>
              ),
            },
            { header: 'Since', cell: (row) => since(row.since, site.zone(row.siteId)) },
            sites.length > 1 && { header: 'Site', cell: (row) => site.name(row.siteId) },
          ]}
          actions={(row) => (
            <>
              {badgeFor(row) ? (
                <button type="button" onClick={() => void print(row)}>
                  Print badge
                </button>
              ) : null}
              {can.checkInOut && row.kind === 'person' && row.status !== 'PENDING' ? (
                <button type="button" disabled={checkout.busy} onClick={() => void checkOut(row)}>
                  Check out
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
