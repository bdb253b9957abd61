import type { Site } from '../../shared/src/schemas/sites';
import { siteLookup } from '../live/siteLookup';
import { statusWord } from '../onSite/rows';
import { atSite } from '../components/time';
import { ListTable } from '../components/ListTable';
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
  const zone = (row: HistoryRow) => site.zone(row.siteId) ?? query.timeZone;
  return (
    <ListTable
      className="history"
      rows={rows}
      rowKey={(row) => row.key}
      columns={[
        { header: columns.name, cell: (row) => (people ? row.name : <span className="plate">{row.name}</span>) },
        { header: columns.company, cell: (row) => row.company ?? '—' },
        people && { header: 'Host', cell: (row) => row.host ?? '—' },
        {
          header: 'Status',
          cell: (row) => <span className={`status status-${row.status.toLowerCase()}`}>{statusWord(row.status)}</span>,
        },
        { header: 'Entered', cell: (row) => atSite(row.entryAt, zone(row)) },
        {
          header: 'Left',
          cell: (row) =>
            row.exitAt ? atSite(row.exitAt, zone(row)) : stillThere.has(row.status) ? 'Still on site' : '—',
        },
        sites.length > 1 && { header: 'Site', cell: (row) => site.name(row.siteId) },
      ]}
    />
  );
}
