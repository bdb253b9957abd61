import type { Site } from '../../shared/src/schemas/sites';
import { siteLookup } from '../live/siteLookup';
import { statusWord } from '../onSite/rows';
import { atSite } from '../components/time';
import { ListTable } from '../components/ListTable';
import { useWords } from '../language/ConsoleLanguage';
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
  const words = useWords();
  const people = query.kind === 'people';
  const site = siteLookup(words, sites);
  const columns = {
    name: people ? words.t('history.column.name') : words.t('history.column.plate'),
    company: people ? words.t('history.column.company') : words.t('history.column.driver'),
  };
  const zone = (row: HistoryRow) => site.zone(row.siteId) ?? query.timeZone;
  return (
    <ListTable
      className="history"
      rows={rows}
      rowKey={(row) => row.key}
      columns={[
        { header: columns.name, cell: (row) => (people ? row.name : <span className="plate">{row.name}</span>) },
        { header: columns.company, cell: (row) => row.company ?? '—' },
        people && { header: words.t('history.column.host'), cell: (row) => row.host ?? '—' },
        {
          header: words.t('history.column.status'),
          cell: (row) => (
            <span className={`status status-${row.status.toLowerCase()}`}>{statusWord(words, row.status)}</span>
          ),
        },
        { header: words.t('history.column.entered'), cell: (row) => atSite(row.entryAt, zone(row)) },
        {
          header: words.t('history.column.left'),
          cell: (row) =>
            row.exitAt
              ? atSite(row.exitAt, zone(row))
              : stillThere.has(row.status)
                ? words.t('history.stillOnSite')
                : '—',
        },
        sites.length > 1 && { header: words.t('common.site'), cell: (row) => site.name(row.siteId) },
      ]}
    />
  );
}
