import type { ApiClient } from '../../../shared/src/client';
import type { KioskDatabase } from '../data/database';
import { type Pairing, stillPaired } from '../data/settings';
import type { CachedSiteConfig, KioskCheckinForm } from '../data/types';
import { readCheckinConfig } from './answers';

/** How long a fetched configuration is used without asking the server again (its Cache-Control). */
export const CONFIG_MAX_AGE_MS = 5 * 60_000;
/** How long the form waits for a revalidation before it shows the cached copy (the screen does not wait on the network). */
export const REVALIDATE_WAIT_MS = 1_000;

export interface SiteConfigResult {
  config: KioskCheckinForm;
  /** False when served from a cache older than the max age because the server did not answer (in time). */
  fresh: boolean;
}

/**
 * The check-in form's fields, per site: from the cache while younger than 5 minutes, else revalidated
 * with the server (If-None-Match), and from the cache however old while the server cannot be reached. A
 * revalidation is waited for at most REVALIDATE_WAIT_MS, and not at all while the server is known to be
 * away; it goes on in the background and updates the cache for the next visitor. Only with nothing cached
 * is the answer waited for (there is no form to show without it).
 */
export function siteConfigSource(deps: {
  db: KioskDatabase;
  api: ApiClient;
  now: () => number;
  hasLink: () => boolean;
  /** The server answered the last request (the sync engine's view). */
  isOnline: () => boolean;
  /** What the kiosk was opened for: an answer that comes after the device was paired elsewhere is dropped. */
  pairing?: Pairing;
  maxAgeMs?: number;
  waitMs?: number;
}) {
  const maxAgeMs = deps.maxAgeMs ?? CONFIG_MAX_AGE_MS;
  const waitMs = deps.waitMs ?? REVALIDATE_WAIT_MS;
  /** One revalidation per site at a time. */
  const running = new Map<number, Promise<SiteConfigResult | undefined>>();

  /** Caches `row` unless the device was paired elsewhere since the request went out. */
  const keep = (row: CachedSiteConfig) =>
    deps.db.transaction('rw', [deps.db.siteConfigs, deps.db.meta], async () => {
      if (!deps.pairing || (await stillPaired(deps.db, deps.pairing))) await deps.db.siteConfigs.put(row);
    });

  const revalidate = async (
    siteId: number,
    cached: CachedSiteConfig | undefined,
  ): Promise<SiteConfigResult | undefined> => {
    // A copy kept before form versions is fetched whole once, so the kiosk learns which version it shows.
    const etag = cached?.config.version == null ? undefined : (cached.etag ?? undefined);
    const outcome = await deps.api.getCheckinConfig(siteId, etag);
    const now = deps.now();
    if (outcome.kind === 'notModified' && cached) {
      await keep({ ...cached, fetchedAt: now });
      return { config: cached.config, fresh: true };
    }
    if (outcome.kind !== 'ok') return undefined;
    const { config, complete } = readCheckinConfig(outcome.value);
    // A copy with newer field types shown as text or left out is kept without the server's ETag, so a kiosk
    // updated since gets the whole configuration at its next revalidation, not a 304 for what it cut.
    await keep({ siteId, config, etag: complete ? outcome.headers.get('ETag') : null, fetchedAt: now });
    return { config, fresh: true };
  };

  const revalidation = (siteId: number, cached: CachedSiteConfig | undefined) => {
    let pending = running.get(siteId);
    if (!pending) {
      pending = revalidate(siteId, cached)
        .catch(() => undefined)
        .finally(() => running.delete(siteId));
      running.set(siteId, pending);
    }
    return pending;
  };

  return {
    async get(siteId: number): Promise<SiteConfigResult | undefined> {
      const cached = await deps.db.siteConfigs.get(siteId);
      // abs(): a clock set back must not make a cached copy look young forever.
      if (cached && Math.abs(deps.now() - cached.fetchedAt) < maxAgeMs) return { config: cached.config, fresh: true };
      if (!deps.hasLink()) return cached && { config: cached.config, fresh: false };
      const alreadyRunning = running.has(siteId);
      const pending = revalidation(siteId, cached);
      if (!cached) return pending;
      const stale = { config: cached.config, fresh: false };
      // A revalidation already under way has had its wait; a server known to be away gets none.
      if (alreadyRunning || !deps.isOnline()) return stale;
      let timer: ReturnType<typeof globalThis.setTimeout> | undefined;
      const late = new Promise<undefined>((resolve) => {
        timer = globalThis.setTimeout(() => resolve(undefined), waitMs);
      });
      const answer = await Promise.race([pending, late]);
      globalThis.clearTimeout(timer);
      return answer ?? stale;
    },
  };
}

export type SiteConfigSource = ReturnType<typeof siteConfigSource>;
