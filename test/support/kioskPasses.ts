import type { Page } from 'playwright-core';
import { expect } from 'vitest';

/** Whether the kiosk holds the pass keys of its site (pulled with the people), read from IndexedDB itself. */
export function holdsPassKeys(page: Page): Promise<boolean> {
  return page.evaluate(
    () =>
      new Promise<boolean>((resolve, reject) => {
        const request = indexedDB.open('gatehouse-kiosk');
        request.onerror = () => reject(new Error(String(request.error)));
        request.onsuccess = () => {
          const db = request.result;
          const read = db.transaction('meta').objectStore('meta').get('sitePasses');
          read.onsuccess = () => {
            resolve(read.result !== undefined);
            db.close();
          };
          read.onerror = () => reject(new Error(String(read.error)));
        };
      }),
  );
}

export const waitForPassKeys = (page: Page) => expect.poll(() => holdsPassKeys(page), { timeout: 10_000 }).toBe(true);

/**
 * From visitor home: Scan a pass (`button`: its name in the kiosk's language), and a keyboard-wedge scanner
 * types the pass and Enter into the focused field.
 */
export async function scanPassByScanner(page: Page, token: string, button = 'Scan a pass'): Promise<void> {
  await page.getByRole('button', { name: button }).click();
  await expect.poll(() => page.getByLabel('Pass').evaluate((input) => input === document.activeElement)).toBe(true);
  // A scanner types fast, but one key at a time into whatever has focus.
  await page.keyboard.type(token, { delay: 0 });
  await page.keyboard.press('Enter');
}
