import { QueryClient } from '@tanstack/react-query';

/**
 * The console's cache of server state. Nothing goes stale by age: the event stream says what changed
 * (console/live), and pages read again when they are opened or after a write. A failed read is not
 * retried by itself: the last good value stays on screen with the failure in words, until the next read.
 */
export const queryClient = new QueryClient({
  defaultOptions: {
    queries: { staleTime: Infinity, retry: false, refetchOnWindowFocus: false, refetchOnReconnect: false },
  },
});
