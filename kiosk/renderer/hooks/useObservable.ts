import { useEffect, useState } from 'react';
import type { Observable } from '../../src/data/observe';

/**
 * The latest value of one of the kiosk's observables (live queries, the sync status), re-rendering on
 * every change. Undefined until the first value arrives, and again while the source changes, so a screen
 * never shows the previous kiosk's data after re-pairing.
 */
export function useObservable<T>(observable: Observable<T> | undefined): T | undefined {
  const [latest, setLatest] = useState<{ source: Observable<T>; value: T }>();
  useEffect(() => {
    if (!observable) return undefined;
    return observable.subscribe((value) => setLatest({ source: observable, value }));
  }, [observable]);
  return latest !== undefined && latest.source === observable ? latest.value : undefined;
}
