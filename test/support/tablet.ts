import type { Page } from 'playwright-core';
import { expect } from 'vitest';
import type { CreatedKiosk } from '../../shared/src/schemas/kiosks';
import type { PersonCheckin } from '../../shared/src/schemas/personCheckins';
import { buildSite, buildToken, buildWorld } from './factories';
import { type ApiClient, apiClient } from './http';
import type { TestServer } from './testServer';

type Harness = Pick<TestServer, 'database' | 'baseUrl'>;

/** A site, its integrator client, and a manager's client (kiosks:manage, as the console's Kiosks page has). */
export async function lobby(server: Harness): Promise<{ siteId: number; manager: ApiClient; api: ApiClient }> {
  const world = await buildWorld(server);
  const site = await buildSite(server, world.accountId, 'Lobby');
  const { token } = await buildToken(server, {
    accountId: world.accountId,
    allSites: true,
    scopes: ['kiosks:manage', 'checkins:read'],
  });
  return { siteId: site.siteId, manager: apiClient(server.baseUrl, token), api: world.api };
}

/** A visitor kiosk added in the console: its one-time pairing code. */
export async function addKiosk(manager: ApiClient, siteId: number, name = 'Lobby tablet'): Promise<string> {
  const created = await manager.post<CreatedKiosk>('/v1/kiosks', { siteId, mode: 'visitor', name });
  expect(created.status, created.text).toBe(201);
  return created.body.pairingCode;
}

/** Waits until the kiosk's service worker controls the page: from then on the page opens offline. */
export async function controlledByServiceWorker(page: Page): Promise<string> {
  await page.waitForFunction(() => navigator.serviceWorker.controller !== null, undefined, { timeout: 30_000 });
  return page.evaluate(() => navigator.serviceWorker.controller?.scriptURL ?? '');
}

/** Pair (the fields already filled), leave the PIN for later, and wait for the visitor home, synced. */
export async function pairAndSkipPin(page: Page): Promise<void> {
  await page.getByRole('button', { name: 'Pair', exact: true }).click();
  await page.getByRole('heading', { name: 'Set a settings PIN?' }).waitFor();
  await page.getByRole('button', { name: 'Not now' }).click();
  await page.getByRole('button', { name: 'Check in', exact: true }).waitFor();
  await expect.poll(() => page.getByRole('status').textContent()).toMatch(/Online.*All synced/);
}

/** The site's person visits on the server, as "First STATUS", sorted. */
export const serverVisits = async (api: ApiClient, siteId: number): Promise<string[]> =>
  (await api.get<{ data: PersonCheckin[] }>(`/v1/sites/${siteId}/checkins/people`)).body.data
    .map((visit) => `${visit.person.firstName} ${visit.status}`)
    .sort();
