import type { KioskDatabase } from '../data/database';
import { type Observable, observeQuery } from '../data/observe';
import { type OutboxCounts, outboxCounts } from '../data/queries';
import type { Connectivity } from './connectivity';

/** What the status bar shows: Online/Offline and how many actions the server has not acknowledged. */
export interface SyncStatus extends OutboxCounts {
  online: boolean;
  /** "All synced", "1 pending", "3 pending". */
  text: string;
}

export const pendingText = (pending: number) => (pending === 0 ? 'All synced' : `${pending} pending`);

/** Live status: a new value whenever the outbox changes (any window) or the connection does. */
export function syncStatus(db: KioskDatabase, connectivity: Connectivity): Observable<SyncStatus> {
  return {
    subscribe(listener) {
      let counts: OutboxCounts | undefined;
      const emit = () => {
        if (counts) listener({ ...counts, online: connectivity.isOnline(), text: pendingText(counts.pending) });
      };
      const stopCounts = observeQuery(() => outboxCounts(db)).subscribe((next) => {
        counts = next;
        emit();
      });
      const stopOnline = connectivity.subscribe(emit);
      return () => {
        stopCounts();
        stopOnline();
      };
    },
  };
}
