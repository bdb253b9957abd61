import { useCallback, useRef, useState } from 'react';
import type { HttpOutcome } from '../../shared/src/client/http';
import { api } from '../api';
import { useWords } from '../language/ConsoleLanguage';
import { failureWords } from '../words';
import { type HistoryQuery, searchBody } from './historyQuery';
import { type HistoryRow, personRow, vehicleRow } from './historyRows';

export interface HistoryList {
  query: HistoryQuery | null;
  rows: HistoryRow[];
  more: boolean;
  busy: boolean;
  error: string | null;
  search: (query: HistoryQuery) => void;
  loadMore: () => void;
  fail: (problem: string) => void;
}

type Page = HttpOutcome<{ data: HistoryRow[]; nextCursor: string | null }>;

/** A page of answers as a page of rows; a failure as it is. */
function asRows<T>(outcome: HttpOutcome<{ data: T[]; nextCursor: string | null }>, row: (item: T) => HistoryRow): Page {
  if (outcome.kind !== 'ok') return outcome;
  return { ...outcome, value: { data: outcome.value.data.map(row), nextCursor: outcome.value.nextCursor } };
}

/** One page of people or vehicles, as rows. */
async function pageOf(query: HistoryQuery, cursor: string | null): Promise<Page> {
  const body = searchBody(query, cursor);
  return query.kind === 'people'
    ? asRows(await api.searchPeople(body), personRow)
    : asRows(await api.searchVehicles(body), vehicleRow);
}

/**
 * The listed visits of the last search, a keyset page at a time; a newer search wins over an older answer.
 * Not usePaged: the query changes only when its first page arrives, so Export CSV always matches the list.
 */
export function useHistory(): HistoryList {
  const words = useWords();
  const [query, setQuery] = useState<HistoryQuery | null>(null);
  const [rows, setRows] = useState<HistoryRow[]>([]);
  const [cursor, setCursor] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const latest = useRef(0);

  const load = useCallback(
    async (next: HistoryQuery, after: string | null) => {
      const request = ++latest.current;
      setBusy(true);
      setError(null);
      const outcome = await pageOf(next, after);
      if (request !== latest.current) return;
      setBusy(false);
      if (outcome.kind !== 'ok') {
        if (outcome.kind !== 'notModified') setError(failureWords(words, outcome));
        return;
      }
      setQuery(next);
      setRows((previous) => (after === null ? outcome.value.data : [...previous, ...outcome.value.data]));
      setCursor(outcome.value.nextCursor);
    },
    [words],
  );

  return {
    query,
    rows,
    more: cursor !== null,
    busy,
    error,
    search: (next) => void load(next, null),
    loadMore: () => {
      if (query && cursor) void load(query, cursor);
    },
    fail: (problem) => {
      latest.current++;
      setBusy(false);
      setError(problem);
    },
  };
}
