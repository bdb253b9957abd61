import { z } from 'zod';
import type { ApiClient } from '../../../shared/src/client';
import type { KioskDatabase } from '../data/database';
import { type Pairing, stillPaired } from '../data/settings';
import { CONFIG_MAX_AGE_MS, REVALIDATE_WAIT_MS } from './siteConfig';

/** One host as the kiosk offers it: the id it sends and the name it shows; nothing else is on the device. */
export interface KioskHost {
  hostId: number;
  name: string;
}

const Cached = z.object({
  siteId: z.number().int(),
  hosts: z.array(z.object({ hostId: z.number().int(), name: z.string() })),
  etag: z.string().nullable(),
  fetchedAt: z.number(),
});
type Cached = z.infer<typeof Cached>;

/** Kept in the meta store (no schema version of its own): one list, of the paired site. */
const KEY = 'siteHosts';

/**
 * The site's hosts for the form's host field (docs/notifications.md), pulled like the site's configuration
 * (siteConfig.ts): from the copy kept while it is younger than 5 minutes, else revalidated with its ETag;
 * the kept copy however old while the server cannot be reached (a revalidation waited for at most 1 s).
 */
export function siteHostsSource(deps: {
  db: KioskDatabase;
  api: ApiClient;
  now: () => number;
  hasLink: () => boolean;
  isOnline: () => boolean;
  pairing?: Pairing;
}) {
  let running: Promise<KioskHost[] | undefined> | undefined;

  const read = async (siteId: number): Promise<Cached | undefined> => {
    const parsed = Cached.safeParse((await deps.db.meta.get(KEY))?.value);
    return parsed.success && parsed.data.siteId === siteId ? parsed.data : undefined;
  };
  const keep = (row: Cached) =>
    deps.db.transaction('rw', [deps.db.meta], async () => {
      if (!deps.pairing || (await stillPaired(deps.db, deps.pairing))) await deps.db.meta.put({ key: KEY, value: row });
    });

  const revalidate = async (siteId: number, cached: Cached | undefined): Promise<KioskHost[] | undefined> => {
    const outcome = await deps.api.getKioskHosts(siteId, cached?.etag ?? undefined);
    const now = deps.now();
    if (outcome.kind === 'notModified' && cached) {
      await keep({ ...cached, fetchedAt: now });
      return cached.hosts;
    }
    if (outcome.kind !== 'ok') return undefined;
    const hosts = outcome.value.data.map(({ hostId, name }) => ({ hostId, name }));
    await keep({ siteId, hosts, etag: outcome.headers.get('ETag'), fetchedAt: now });
    return hosts;
  };

  return {
    async get(siteId: number): Promise<KioskHost[]> {
      const cached = await read(siteId);
      if (cached && Math.abs(deps.now() - cached.fetchedAt) < CONFIG_MAX_AGE_MS) return cached.hosts;
      if (!deps.hasLink()) return cached?.hosts ?? [];
      const alreadyRunning = running !== undefined;
      running ??= revalidate(siteId, cached)
        .catch(() => undefined)
        .finally(() => (running = undefined));
      const pending = running;
      if (!cached) return (await pending) ?? [];
      if (alreadyRunning || !deps.isOnline()) return cached.hosts;
      let timer: ReturnType<typeof globalThis.setTimeout> | undefined;
      const late = new Promise<undefined>((resolve) => {
        timer = globalThis.setTimeout(() => resolve(undefined), REVALIDATE_WAIT_MS);
      });
      const answer = await Promise.race([pending, late]);
      globalThis.clearTimeout(timer);
      return answer ?? cached.hosts;
    },
  };
}
