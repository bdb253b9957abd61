import type { Site } from '../../shared/src/schemas/sites';
import { siteLookup } from '../live/siteLookup';
import { statusWord } from '../onSite/rows';
import { atSite } from '../components/time';
import type { HistoryQuery } from './historyQuery';
import type { HistoryRow } from './historyRows';

const stillThere = new Set(['IN', 'ON_BREAK']);

/** The listed visits: a table on a desk, one card per visit on a phone; times on each site's clock. */
export function HistoryTable({
  query,
  rows,
  sites,
}: {
  query: HistoryQuery;
  rows: readonly HistoryRow[];
  sites: readonly Site[];
}) {
  const people = query.kind === 'people';
  const site = siteLookup(sites);
  const columns = { name: people ? 'Name' : 'Plate', company: people ? 'Company' : 'Driver' };
  return (
    <table className="rows history">
      <thead>
        <tr>
          <th scope="col">{columns.name}</th>
          <th scope="col">{columns.company}</th>
          {people ? <th scope="col">Host</th> : null}
          <th scope="col">Status</th>
          <th scope="col">Entered</th>
          <th scope="col">Left</th>
          {sites.length > 1 ? <th scope="col">Site</th> : null}
        </tr>
      </thead>
      <tbody>
        {rows.map((row) => {
          const timeZone = site.zone(row.siteId) ?? query.timeZone;
          return (
            <tr key={row.key}>
              <th scope="row" data-label={columns.name}>
                {people ? row.name : <span className="plate">{row.name}</span>}
              </th>
              <td data-label={columns.company}>{row.company ?? '—'}</td>
              {people ? <td data-label="Host">{row.host ?? '—'}</td> : null}
              <td data-label="Status">
                <span className={`status status-${row.status.toLowerCase()}`}>{statusWord(row.status)}</span>
              </td>
              <td data-label="Entered">{atSite(row.entryAt, timeZone)}</td>
              <td data-label="Left">
                {row.exitAt ? atSite(row.exitAt, timeZone) : stillThere.has(row.status) ? 'Still on site' : '—'}
              </td>
              {sites.length > 1 ? <td data-label="Site">{site.name(row.siteId)}</td> : null}
            </tr>
          );
        })}
      </tbody>
    </table>
  );
}
