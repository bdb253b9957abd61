import { useCallback, useRef, useState } from 'react';
import type { PersonCheckinAnswer } from '../../shared/src/client';
import { api } from '../api';
import { failureWords } from '../words';
import { type HistoryQuery, searchBody } from './historyQuery';

export interface HistoryList {
  query: HistoryQuery | null;
  rows: PersonCheckinAnswer[];
  more: boolean;
  busy: boolean;
  error: string | null;
  search(query: HistoryQuery): void;
  loadMore(): void;
  fail(problem: string): void;
}

/** The listed visits of the last search, a keyset page at a time; a newer search wins over an older answer. */
export function useHistory(): HistoryList {
  const [query, setQuery] = useState<HistoryQuery | null>(null);
  const [rows, setRows] = useState<PersonCheckinAnswer[]>([]);
  const [cursor, setCursor] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const latest = useRef(0);

  const load = useCallback(async (next: HistoryQuery, after: string | null) => {
    const request = ++latest.current;
    setBusy(true);
    setError(null);
    const outcome = await api.searchPeople(searchBody(next, after));
    if (request !== latest.current) return;
    setBusy(false);
    if (outcome.kind !== 'ok') {
      if (outcome.kind !== 'notModified') setError(failureWords(outcome));
      return;
    }
    setQuery(next);
    setRows((previous) => (after === null ? outcome.value.data : [...previous, ...outcome.value.data]));
    setCursor(outcome.value.nextCursor);
  }, []);

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
