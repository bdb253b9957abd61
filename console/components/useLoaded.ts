import { useQuery } from '@tanstack/react-query';
import { useCallback, useEffect } from 'react';
import type { HttpOutcome } from '../../shared/src/client/http';
import { ReadFailure, answerOf } from '../live/liveQueries';
import { useWords } from '../language/ConsoleLanguage';
import { useSession } from '../session/SessionContext';
import { readFailureWords } from '../words';

/**
 * What a page lists, through the query cache under `key` (pages that read the same thing share it): read
 * when the page opens, again on `reload()` (and every `everyMs` while the tab is shown). The last good value
 * stays on screen when a later read fails, with the failure in words beside it.
 */
export function useLoaded<T>(key: readonly unknown[], read: () => Promise<HttpOutcome<T>>, everyMs?: number) {
  const { signedOut } = useSession();
  const words = useWords();
  const query = useQuery({
    queryKey: key,
    queryFn: async () => answerOf(await read()),
    staleTime: 0,
    refetchInterval: everyMs ?? false,
  });
  const ended = query.error instanceof ReadFailure && query.error.signedOut;
  useEffect(() => {
    if (ended) signedOut();
  }, [ended, signedOut]);
  const { refetch } = query;
  const reload = useCallback(async () => void (await refetch()), [refetch]);
  return { value: query.data ?? null, error: query.error ? readFailureWords(words, query.error) : null, reload };
}
