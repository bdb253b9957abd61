import { useCallback, useEffect, useRef, useState } from 'react';
import type { HttpOutcome } from '../../shared/src/client/http';
import { failureWords } from '../words';

type PageOutcome<T> = HttpOutcome<{ data: T[]; nextCursor: string | null }>;

/**
 * A keyset-paged list (docs/api.md, Pagination): the first page on load and whenever `key` changes, then
 * `loadMore` appends the next one. A stale answer (the filter changed meanwhile) is dropped.
 */
export function usePaged<T>(load: (cursor?: string) => Promise<PageOutcome<T>>, key: string) {
  const [items, setItems] = useState<T[] | null>(null);
  const [cursor, setCursor] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const generation = useRef(0);
  const loadRef = useRef(load);
  loadRef.current = load;

  const fetchPage = useCallback(async (after: string | undefined, append: boolean) => {
    const mine = ++generation.current;
    setBusy(true);
    const outcome = await loadRef.current(after);
    if (mine !== generation.current) return;
    setBusy(false);
    if (outcome.kind !== 'ok') {
      if (outcome.kind !== 'notModified') setError(failureWords(outcome));
      return;
    }
    setError(null);
    setItems((before) => (append && before ? [...before, ...outcome.value.data] : outcome.value.data));
    setCursor(outcome.value.nextCursor);
  }, []);

  const reload = useCallback(() => void fetchPage(undefined, false), [fetchPage]);
  useEffect(reload, [reload, key]);
  const loadMore = useCallback(() => {
    if (cursor) void fetchPage(cursor, true);
  }, [cursor, fetchPage]);
  return { items, setItems, error, busy, hasMore: cursor !== null, loadMore, reload };
}
