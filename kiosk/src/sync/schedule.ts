import type { KioskDatabase } from '../data/database';
import type { RetryPolicy } from './backoff';
import { sendableHeads } from './plateOrder';

/**
 * When the next pass should run for the queue's sake: the earliest time any visit's first action is due
 * (later actions wait for their first; an entry waiting for an earlier visit of its plate waits for that
 * visit's schedule). A backoff may have run out while the pass was still busy, so a
 * head already due means "now"; undefined means nothing is waiting to be sent.
 */
export async function nextRetryAt(db: KioskDatabase, now: number, policy: RetryPolicy): Promise<number | undefined> {
  let earliest: number | undefined;
  for (const head of await sendableHeads(db)) {
    if (head.state !== 'QUEUED') continue;
    // A time beyond the cap means the clock moved back: retry within one cap from now.
    const at = Math.max(now, Math.min(head.nextAttemptAt, now + policy.capMs));
    earliest = earliest === undefined ? at : Math.min(earliest, at);
  }
  return earliest;
}

/** Coming back online: actions that failed for want of a network are due at once, with a fresh backoff. */
export async function resetNetworkBackoff(db: KioskDatabase): Promise<void> {
  await db.outbox
    .where('state')
    .equals('QUEUED')
    .filter((action) => action.lastError?.code === 'NETWORK')
    .modify({ nextAttemptAt: 0, attempts: 0 });
}
