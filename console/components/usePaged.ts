import { type InfiniteData, keepPreviousData, useInfiniteQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect } from 'react';
import type { HttpOutcome } from '../../shared/src/client/http';
import { ReadFailure, answerOf } from '../live/liveQueries';
import { useWords } from '../language/ConsoleLanguage';
import { useSession } from '../session/SessionContext';
import { readFailureWords } from '../words';

type Page<T> = { data: T[]; nextCursor: string | null };

/**
 * A keyset-paged list (docs/api.md, Pagination) through the query cache under `key` (its filter included):
 * the first page when the page opens or the key changes, then `loadMore` appends the next one; `reload`
 * reads again the pages shown.
 */
export function usePaged<T>(key: readonly unknown[], load: (cursor?: string) => Promise<HttpOutcome<Page<T>>>) {
  const { signedOut } = useSession();
  const words = useWords();
  const queryClient = useQueryClient();
  const query = useInfiniteQuery({
    queryKey: key,
    queryFn: async ({ pageParam }) => answerOf(await load(pageParam)),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last) => last.nextCursor ?? undefined,
    staleTime: 0,
    // A new filter keeps the rows on screen until its answer comes, as before.
    placeholderData: keepPreviousData,
  });
  const ended = query.error instanceof ReadFailure && query.error.signedOut;
  useEffect(() => {
    if (ended) signedOut();
  }, [ended, signedOut]);

  const { refetch, fetchNextPage, hasNextPage, isFetching } = query;
  const reload = useCallback(() => void refetch(), [refetch]);
  const loadMore = useCallback(() => {
    if (hasNextPage && !isFetching) void fetchNextPage();
  }, [fetchNextPage, hasNextPage, isFetching]);
  /** Puts a changed item in place (the answer of a write), without reading the list again. */
  const updateItems = useCallback(
    (change: (item: T) => T) =>
      queryClient.setQueryData<InfiniteData<Page<T>, string | undefined>>(key, (data) =>
        data ? { ...data, pages: data.pages.map((page) => ({ ...page, data: page.data.map(change) })) } : data,
      ),
    [queryClient, key],
  );
  return {
    items: query.data ? query.data.pages.flatMap((page) => page.data) : null,
    updateItems,
    error: query.error ? readFailureWords(words, query.error) : null,
    busy: isFetching,
    hasMore: hasNextPage,
    loadMore,
    reload,
  };
}
