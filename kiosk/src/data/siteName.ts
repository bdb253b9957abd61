import { z } from 'zod';
import { Id } from '../../../shared/src/schemas/common';
import { type Language, isLanguage } from '../../../shared/src/messages/languages';
import type { KioskDatabase } from './database';
import { type Pairing, stillPaired } from './settings';

/**
 * The site the kiosk serves as the server last described it: its name (the gate's header names it offline
 * too) and its default language (a visitor kiosk speaks it when no visitor has chosen another).
 */
const KEY = 'siteName';
// `defaultLanguage` as any text: a language a newer server added is kept, and read as none (English).
const SiteName = z.object({ siteId: Id, name: z.string(), defaultLanguage: z.string().optional() });

export async function readSiteName(db: KioskDatabase, siteId: number): Promise<string | undefined> {
  const parsed = SiteName.safeParse((await db.meta.get(KEY))?.value);
  return parsed.success && parsed.data.siteId === siteId ? parsed.data.name : undefined;
}

/** The site's default language, once heard from the server; undefined before (or for one this kiosk lacks). */
export async function readSiteLanguage(db: KioskDatabase, siteId: number): Promise<Language | undefined> {
  const parsed = SiteName.safeParse((await db.meta.get(KEY))?.value);
  if (!parsed.success || parsed.data.siteId !== siteId) return undefined;
  const language = parsed.data.defaultLanguage;
  return isLanguage(language) ? language : undefined;
}

/** Written only while the device is still paired with the site the name was asked for. */
export async function recordSiteName(
  db: KioskDatabase,
  pairing: Pairing,
  site: { name: string; defaultLanguage?: string },
): Promise<void> {
  await db.transaction('rw', [db.meta], async () => {
    if (!(await stillPaired(db, pairing))) return;
    const current = await db.meta.get(KEY);
    const next = SiteName.parse({ siteId: pairing.siteId, name: site.name, defaultLanguage: site.defaultLanguage });
    // Unchanged: no write, so the live header is not woken for nothing.
    if (JSON.stringify(current?.value) !== JSON.stringify(next)) await db.meta.put({ key: KEY, value: next });
  });
}
