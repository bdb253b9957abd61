import { z } from 'zod';
import { Id } from '../../../shared/src/schemas/common';
import type { KioskDatabase } from './database';
import { type Pairing, stillPaired } from './settings';

/** The name of the site the kiosk serves, as the server last gave it: kept so the gate's header names it offline too. */
const KEY = 'siteName';
const SiteName = z.object({ siteId: Id, name: z.string() });

export async function readSiteName(db: KioskDatabase, siteId: number): Promise<string | undefined> {
  const parsed = SiteName.safeParse((await db.meta.get(KEY))?.value);
  return parsed.success && parsed.data.siteId === siteId ? parsed.data.name : undefined;
}

/** Written only while the device is still paired with the site the name was asked for. */
export async function recordSiteName(db: KioskDatabase, pairing: Pairing, name: string): Promise<void> {
  await db.transaction('rw', [db.meta], async () => {
    if (!(await stillPaired(db, pairing))) return;
    const current = await db.meta.get(KEY);
    const next = SiteName.parse({ siteId: pairing.siteId, name });
    // Unchanged: no write, so the live header is not woken for nothing.
    if (JSON.stringify(current?.value) !== JSON.stringify(next)) await db.meta.put({ key: KEY, value: next });
  });
}
