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
