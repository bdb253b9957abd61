import { createHash } from 'node:crypto';
import type { KioskHostList } from '../../../shared/src/schemas/hosts';
import type { Executor } from '../db/query';
import { siteHosts } from './hosts';

/** A site's hosts as a kiosk holds them: ids and names only. */
export async function readKioskHosts(db: Executor, key: { accountId: number; siteId: number }): Promise<KioskHostList> {
  return { data: await siteHosts(db, key) };
}

/** A strong validator of exactly this list: it changes whenever a host of the site is added, renamed or removed. */
export function kioskHostsEtag(list: KioskHostList): string {
  return `"hosts-${createHash('sha256').update(JSON.stringify(list.data)).digest('hex').slice(0, 32)}"`;
}
