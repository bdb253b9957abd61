import type { Page } from 'playwright-core';
import { expect } from 'vitest';
import { type ConfigField, defaultCheckinConfig } from '../../shared/src/schemas/sites';
import type { ApiClient } from './http';

/** Replaces a site's check-in configuration through the API, as its administrator would; it must be taken. */
export async function putCheckinConfig(
  site: { api: ApiClient; siteId: number },
  fields: ConfigField[],
  requiresApproval = false,
): Promise<void> {
  const response = await site.api.put(`/v1/sites/${site.siteId}/checkins/people/config`, { requiresApproval, fields });
  expect(response.status, response.text).toBe(200);
}

/** The site starts asking for a badge number besides its default fields (one a kiosk's cached form lacks). */
export const requireBadgeNumber = (site: { api: ApiClient; siteId: number }) =>
  putCheckinConfig(site, [
    ...defaultCheckinConfig.fields,
    { name: 'badgeNumber', label: 'Badge number', type: 'text', required: true },
  ]);

/**
 * Makes a kiosk page's cached forms look as a kiosk kept them before form versions (no `version`): a check-in
 * made on one is checked against the server's current form. The way to have the server refuse a check-in for a
 * field the cached form lacks; a kiosk with a versioned copy is accepted instead (docs/api.md, Form versions).
 */
export function forgetCachedFormVersions(page: Page): Promise<number> {
  return page.evaluate(
    () =>
      new Promise<number>((resolve, reject) => {
        const request = indexedDB.open('gatehouse-kiosk');
        request.onerror = () => reject(request.error ?? new Error('the kiosk database did not open'));
        request.onsuccess = () => {
          const db = request.result;
          const store = db.transaction('siteConfigs', 'readwrite').objectStore('siteConfigs');
          let changed = 0;
          const cursor = store.openCursor();
          cursor.onerror = () => reject(cursor.error ?? new Error('the cached forms could not be read'));
          cursor.onsuccess = () => {
            const at = cursor.result;
            if (!at) {
              db.close();
              resolve(changed);
              return;
            }
            const row = at.value as { config: { version?: number | null } };
            delete row.config.version;
            at.update(row);
            changed += 1;
            at.continue();
          };
        };
      }),
  );
}
