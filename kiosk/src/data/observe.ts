import { liveQuery } from 'dexie';

/** The smallest observable a screen needs: the latest value now and on every change. */
export interface Observable<T> {
  subscribe: (listener: (value: T) => void) => () => void;
}

/**
 * Re-runs `query` whenever the tables it read change, in this window or another (Dexie liveQuery).
 * Errors are reported to `onError` rather than ending the subscription silently. Beware in Node: Dexie
 * runs live queries only if a global `indexedDB` existed when it was first imported (import
 * `fake-indexeddb/auto` before anything that imports Dexie); browsers and Electron always have one.
 */
export function observeQuery<T>(query: () => Promise<T>, onError: (error: unknown) => void = () => {}): Observable<T> {
  return {
    subscribe(listener) {
      const subscription = liveQuery(query).subscribe({ next: listener, error: onError });
      return () => subscription.unsubscribe();
    },
  };
}
