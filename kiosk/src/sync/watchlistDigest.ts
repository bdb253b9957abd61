import type { ApiClient } from '../../../shared/src/client';
import type { KioskDatabase } from '../data/database';
import { type Pairing, stillPaired } from '../data/settings';
import type { PullResult } from './pull';

export interface DigestContext {
  db: KioskDatabase;
  api: ApiClient;
  pairing?: Pairing;
  now: () => number;
  onReachability: (reachable: boolean) => void;
}

/**
 * Brings the kiosk's copy of the watchlist digest up to date (If-None-Match: usually a 304), with every
 * pull of the site. A refusal (a token without `checkins:write`) keeps the copy it has and is not retried
 * before the next pull; only a server that did not answer counts as a failed pull.
 */
export async function refreshWatchlistDigest(ctx: DigestContext, siteId: number): Promise<PullResult> {
  const { db } = ctx;
  const cached = await db.watchlistDigests.get(siteId);
  const outcome = await ctx.api.getWatchlistDigest(siteId, cached?.etag ?? undefined);
  ctx.onReachability(outcome.kind !== 'unreachable');
  if (outcome.kind === 'unreachable') return 'failed';
  if (outcome.kind === 'refused' && outcome.status >= 500) return 'failed';
  if (outcome.kind !== 'ok' && outcome.kind !== 'notModified') {
    console.warn(`Watchlist digest of site ${siteId} not fetched (${outcome.kind}).`);
    return 'pulled';
  }
  const fetchedAt = ctx.now();
  await db.transaction('rw', [db.watchlistDigests, db.meta], async () => {
    // A digest that comes after the device was paired elsewhere is not kept.
    if (ctx.pairing && !(await stillPaired(db, ctx.pairing))) return;
    if (outcome.kind === 'ok')
      await db.watchlistDigests.put({ siteId, digest: outcome.value, etag: outcome.headers.get('ETag'), fetchedAt });
    else if (cached) await db.watchlistDigests.put({ ...cached, fetchedAt });
  });
  return 'pulled';
}
