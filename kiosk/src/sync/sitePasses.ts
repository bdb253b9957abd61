import type { ApiClient } from '../../../shared/src/client';
import type { KioskDatabase } from '../data/database';
import { keepPassCopy, readPassCopy } from '../data/passes';
import type { Pairing } from '../data/settings';
import type { PullResult } from './pull';

export interface PassesContext {
  db: KioskDatabase;
  api: ApiClient;
  pairing?: Pairing;
  now: () => number;
  onReachability: (reachable: boolean) => void;
}

/**
 * Brings the kiosk's copy of the pass keys and the site's revoked passes up to date with every pull, as the
 * watchlist digest (If-None-Match: usually a 304), so a pass is checked offline with what was last known.
 * A refusal keeps the copy it has; only a server that did not answer counts as a failed pull.
 */
export async function refreshSitePasses(ctx: PassesContext, siteId: number): Promise<PullResult> {
  const cached = await readPassCopy(ctx.db, siteId);
  const outcome = await ctx.api.getKioskPasses(siteId, cached?.etag ?? undefined);
  ctx.onReachability(outcome.kind !== 'unreachable');
  if (outcome.kind === 'unreachable') return 'failed';
  if (outcome.kind === 'refused' && outcome.status >= 500) return 'failed';
  const fetchedAt = ctx.now();
  if (outcome.kind === 'ok') {
    const { accountId, keys, revoked } = outcome.value;
    const etag = outcome.headers.get('ETag');
    await keepPassCopy(ctx.db, ctx.pairing, { siteId, accountId, keys: keys.keys, revoked, etag, fetchedAt });
  } else if (outcome.kind === 'notModified' && cached) {
    await keepPassCopy(ctx.db, ctx.pairing, { ...cached, fetchedAt });
  } else {
    console.warn(`Pass keys of site ${siteId} not fetched (${outcome.kind}).`);
  }
  return 'pulled';
}
