import type { Browser, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { version } from '../../package.json';
import type { PersonCheckin } from '../../shared/src/schemas/personCheckins';
import type { CreatedKiosk, Kiosk } from '../../shared/src/schemas/kiosks';
import { pairingLink } from '../../shared/src/schemas/kiosks';
import { browserAvailable } from '../support/browser';
import { buildSite, buildToken, buildWorld } from '../support/factories';
import { type ApiClient, apiClient } from '../support/http';
import {
  checkInThroughForm,
  kioskBrowserHooks,
  kioskContext,
  type KioskWeb,
  outboxCount,
  screenshot,
} from '../support/kioskWeb';
import type { TestServer } from '../support/testServer';

// Pairing a kiosk with the code the console shows (docs/kiosk-sync.md, Pairing, heartbeat, revocation): no
// token typed, a QR scan fills the form, wrong codes said in words, a revoked kiosk keeps what it saved.

describe.skipIf(!browserAvailable())('kiosk pairing with a code, in a real browser', () => {
  let server: TestServer;
  let browser: Browser;
  let web: KioskWeb;
  kioskBrowserHooks((started) => ({ server, browser, web } = started));

  /** A site and a manager's credential for its account (kiosks:manage, as the console's Kiosks page has). */
  async function lobby(): Promise<{ siteId: number; manager: ApiClient; api: ApiClient }> {
    const world = await buildWorld(server);
    const site = await buildSite(server, world.accountId, 'Lobby');
    const { token } = await buildToken(server, {
      accountId: world.accountId,
      allSites: true,
      scopes: ['kiosks:manage', 'checkins:read'],
    });
    return { siteId: site.siteId, manager: apiClient(server.baseUrl, token), api: world.api };
  }

  async function addKiosk(manager: ApiClient, siteId: number, name = 'Front desk'): Promise<CreatedKiosk> {
    const created = await manager.post<CreatedKiosk>('/v1/kiosks', { siteId, mode: 'visitor', name });
    expect(created.status, created.text).toBe(201);
    return created.body;
  }

  const statusBar = (page: Page) => page.getByRole('status');
  const pairButton = (page: Page) => page.getByRole('button', { name: 'Pair', exact: true });

  /** Pairs on the setup screen with the code, then leaves the PIN for later: the visitor home. */
  async function pairAndSkipPin(page: Page): Promise<void> {
    await pairButton(page).click();
    await page.getByRole('heading', { name: 'Set a settings PIN?' }).waitFor();
    await page.getByRole('button', { name: 'Not now' }).click();
    await page.getByRole('button', { name: 'Check in', exact: true }).waitFor();
    await expect.poll(() => statusBar(page).textContent()).toMatch(/Online.*All synced/);
  }

  const serverNames = async (api: ApiClient, siteId: number) =>
    (await api.get<{ data: PersonCheckin[] }>(`/v1/sites/${siteId}/checkins/people`)).body.data
      .map((visit) => `${visit.person.firstName} ${visit.status}`)
      .sort();

  it('pairs with the server address and the code alone, checks a visitor in, and its heartbeat reaches the server', async () => {
    const { siteId, manager, api } = await lobby();
    const { kiosk, pairingCode } = await addKiosk(manager, siteId);
    const context = await kioskContext(browser);
    const page = await context.newPage();
    await page.goto(web.url);
    await page.getByLabel('Server address').fill(server.baseUrl);
    // As a person types it from the console: lower case, with a space.
    await page.getByLabel('Pairing code').fill(`${pairingCode.slice(0, 4).toLowerCase()} ${pairingCode.slice(4)}`);
    expect(await page.getByLabel('Kiosk token').isVisible()).toBe(false);
    await screenshot(page, 'kiosk-pairing-setup');
    await page.setViewportSize({ width: 360, height: 640 });
    await screenshot(page, 'kiosk-pairing-setup-phone');
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
    await page.setViewportSize({ width: 1280, height: 800 });
    await pairAndSkipPin(page);

    await checkInThroughForm(page, 'Grace', 'Hopper');
    await expect.poll(() => outboxCount(page), { timeout: 10_000 }).toBe(0);
    expect(await serverNames(api, siteId)).toEqual(['Grace IN']);

    // The heartbeat at start: the console's Kiosks page reads it back.
    const listed = async () =>
      (await manager.get<{ data: Kiosk[] }>(`/v1/kiosks?siteIds=${siteId}`)).body.data.find(
        (k) => k.kioskId === kiosk.kioskId,
      );
    await expect.poll(async () => (await listed())?.lastSeenAt ?? null, { timeout: 10_000 }).not.toBeNull();
    expect(await listed()).toMatchObject({
      pairedAt: expect.any(String),
      appVersion: version,
      pending: expect.any(Number),
      attention: 0,
    });
    await context.close();
  }, 40_000);

  it('fills both fields from a scanned QR code, and from ?server=&code= in the address', async () => {
    const { siteId, manager } = await lobby();
    const scanned = await addKiosk(manager, siteId, 'Scanned');
    const context = await kioskContext(browser);
    const page = await context.newPage();
    await page.goto(web.url);
    // A keyboard-wedge scanner types the QR code's text, one key at a time, then Enter (which pairs).
    await page.getByLabel('Pairing code').click();
    await page.keyboard.type(pairingLink(server.baseUrl, scanned.pairingCode), { delay: 2 });
    expect(await page.getByLabel('Server address').inputValue()).toBe(server.baseUrl);
    expect(await page.getByLabel('Pairing code').inputValue()).toBe(scanned.pairingCode);
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { name: 'Set a settings PIN?' }).waitFor();
    await context.close();

    const preset = await addKiosk(manager, siteId, 'Preset');
    const second = await kioskContext(browser);
    const presetPage = await second.newPage();
    await presetPage.goto(`${web.url}?${new URLSearchParams({ server: server.baseUrl, code: preset.pairingCode })}`);
    expect(await presetPage.getByLabel('Server address').inputValue()).toBe(server.baseUrl);
    expect(await presetPage.getByLabel('Pairing code').inputValue()).toBe(preset.pairingCode);
    // The code does not linger in the address bar.
    await expect.poll(() => presetPage.evaluate(() => window.location.search)).toBe('');
    await pairAndSkipPin(presetPage);
    await second.close();
  }, 40_000);

  it('says in words that a code is wrong, used or expired', async () => {
    const { siteId, manager } = await lobby();
    const { pairingCode } = await addKiosk(manager, siteId);
    const context = await kioskContext(browser);
    const page = await context.newPage();
    await page.goto(web.url);
    await page.getByLabel('Server address').fill(server.baseUrl);
    await page.getByLabel('Pairing code').fill('ZZZZ2222');
    await pairButton(page).click();
    await expect.poll(() => page.getByRole('alert').textContent()).toBe('This pairing code is wrong, used or expired.');
    await page.setViewportSize({ width: 360, height: 640 });
    await screenshot(page, 'kiosk-pairing-wrong-code-phone');
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
    await page.setViewportSize({ width: 1280, height: 800 });

    // Used: the right code works once.
    const other = await kioskContext(browser);
    const first = await other.newPage();
    await first.goto(`${web.url}?${new URLSearchParams({ server: server.baseUrl, code: pairingCode })}`);
    await pairAndSkipPin(first);
    await other.close();
    await page.getByLabel('Pairing code').fill(pairingCode);
    await pairButton(page).click();
    await expect.poll(() => page.getByRole('alert').textContent()).toBe('This pairing code is wrong, used or expired.');
    expect(await page.getByLabel('Pairing code').inputValue()).toBe(pairingCode);
    await context.close();
  }, 40_000);

  it('a revoked kiosk says so, keeps what it saved, and sends it once paired again with a new code', async () => {
    const { siteId, manager, api } = await lobby();
    const { kiosk, pairingCode } = await addKiosk(manager, siteId);
    const context = await kioskContext(browser);
    const page = await context.newPage();
    await page.goto(`${web.url}?${new URLSearchParams({ server: server.baseUrl, code: pairingCode })}`);
    await pairAndSkipPin(page);
    await checkInThroughForm(page, 'Ada', 'Lovelace');
    await expect.poll(() => outboxCount(page), { timeout: 10_000 }).toBe(0);

    // A manager revokes the kiosk: its next request is refused (401).
    expect((await manager.delete(`/v1/kiosks/${kiosk.kioskId}`)).status).toBe(204);
    await page.getByRole('button', { name: 'Done' }).click();
    await checkInThroughForm(page, 'Bob', 'Pending');
    const alert = page.getByRole('alert').filter({ hasText: 'revoked' });
    await expect
      .poll(() => alert.textContent(), { timeout: 10_000 })
      .toBe('This kiosk was revoked. Ask a manager to pair it again.');
    // Still saved on the device, and saving goes on: nothing is lost, nothing is sent.
    await page.getByRole('button', { name: 'Done' }).click();
    await checkInThroughForm(page, 'Cy', 'Pending');
    await page.getByRole('button', { name: 'Done' }).click();
    expect(await outboxCount(page)).toBe(2);
    await expect.poll(() => statusBar(page).textContent()).toMatch(/^Revoked.*2 pending/);
    await screenshot(page, 'kiosk-revoked');
    await page.setViewportSize({ width: 360, height: 640 });
    await screenshot(page, 'kiosk-revoked-phone');
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
    await page.setViewportSize({ width: 1280, height: 800 });
    expect(await serverNames(api, siteId)).toEqual(['Ada IN']);

    // A new kiosk for the same site; the device pairs with its code while its actions are pending.
    const replacement = await addKiosk(manager, siteId, 'Front desk again');
    await page.getByRole('button', { name: 'Pair again' }).click();
    expect(await page.getByLabel('Server address').inputValue()).toBe(server.baseUrl);
    await page.getByLabel('Pairing code').fill(replacement.pairingCode);
    await pairButton(page).click();
    await page.getByRole('button', { name: 'Check in', exact: true }).waitFor();
    await expect.poll(() => outboxCount(page), { timeout: 10_000 }).toBe(0);
    expect(await page.getByText('This kiosk was revoked').count()).toBe(0);
    expect(await serverNames(api, siteId)).toEqual(['Ada IN', 'Bob IN', 'Cy IN']);
    await expect.poll(() => statusBar(page).textContent()).toMatch(/Online.*All synced/);
    await context.close();
  }, 40_000);

  // Last: it spends this address's budget of wrong codes for the rest of the file.
  it('after too many wrong codes says how long to wait', async () => {
    const anonymous = apiClient(server.baseUrl);
    let answer = 422;
    for (let tries = 0; answer === 422 && tries < 20; tries += 1)
      answer = (await anonymous.post('/v1/kiosk/pair', { code: 'WRONG234' })).status;
    expect(answer).toBe(429);
    const context = await kioskContext(browser);
    const page = await context.newPage();
    await page.goto(web.url);
    await page.getByLabel('Server address').fill(server.baseUrl);
    await page.getByLabel('Pairing code').fill('ZZZZ3333');
    await pairButton(page).click();
    await expect
      .poll(() => page.getByRole('alert').textContent())
      .toMatch(/^Too many wrong codes\. Try again in 1[45] minutes\.$/);
    await context.close();
  }, 40_000);
});
