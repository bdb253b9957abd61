import type { CheckinConfig } from '../../../shared/src/schemas/sites';
import type { ApiClient } from '../../../shared/src/client';
import type { KioskDatabase } from '../data/database';

/** How long a fetched configuration is used without asking the server again (its Cache-Control). */
export const CONFIG_MAX_AGE_MS = 5 * 60_000;

export interface SiteConfigResult {
  config: CheckinConfig;
  /** False when served from a cache older than the max age because the server could not be asked. */
  fresh: boolean;
}

/**
 * The check-in form's fields, per site: from the cache while younger than 5 minutes, else revalidated
 * with the server (If-None-Match), and from the cache however old while the server cannot be reached.
 */
export function siteConfigSource(deps: { db: KioskDatabase; api: ApiClient; now(): number; hasLink(): boolean; maxAgeMs?: number }) {
  const maxAgeMs = deps.maxAgeMs ?? CONFIG_MAX_AGE_MS;
  return {
    async get(siteId: number): Promise<SiteConfigResult | undefined> {
      const cached = await deps.db.siteConfigs.get(siteId);
      const now = deps.now();
      // abs(): a clock set back must not make a cached copy look young forever.
      if (cached && Math.abs(now - cached.fetchedAt) < maxAgeMs) return { config: cached.config, fresh: true };
      const stale = cached ? { config: cached.config, fresh: false } : undefined;
      if (!deps.hasLink()) return stale;
      const outcome = await deps.api.getCheckinConfig(siteId, cached?.etag ?? undefined);
      if (outcome.kind === 'notModified' && cached) {
        await deps.db.siteConfigs.put({ ...cached, fetchedAt: now });
        return { config: cached.config, fresh: true };
      }
      if (outcome.kind !== 'ok') return stale;
      await deps.db.siteConfigs.put({ siteId, config: outcome.value, etag: outcome.headers.get('ETag'), fetchedAt: now });
      return { config: outcome.value, fresh: true };
    },
  };
}

export type SiteConfigSource = ReturnType<typeof siteConfigSource>;
