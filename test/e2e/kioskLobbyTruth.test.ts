import type { Browser, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import type { PersonCheckin } from '../../shared/src/schemas/personCheckins';
import { browserAvailable } from '../support/browser';
import { type KioskTestSite, kioskSite } from '../support/factories';
import {
  kioskBrowserHooks,
  type KioskWeb,
  openKioskPage,
  outboxCount,
  screenshot,
  storeCount,
} from '../support/kioskWeb';
import type { TestServer } from '../support/testServer';

/** Every text any confirmation showed from now on, so a Welcome shown for a moment is caught too. */
async function recordConfirmations(page: Page): Promise<() => Promise<string[]>> {
  await page.evaluate(() => {
    const seen: string[] = [];
    Object.assign(window, { confirmationTexts: seen });
    const look = () => {
      for (const element of document.querySelectorAll('.confirmation, .form-notice'))
        seen.push(element.textContent ?? '');
    };
    new MutationObserver(look).observe(document.body, { childList: true, subtree: true, characterData: true });
  });
  return () => page.evaluate(() => (window as unknown as { confirmationTexts: string[] }).confirmationTexts);
}

async function checkIn(page: Page, firstName: string, lastName: string): Promise<void> {
  await page.getByRole('button', { name: 'Check in', exact: true }).click();
  await page.getByLabel('First name', { exact: true }).fill(firstName);
  await page.getByLabel('Last name', { exact: true }).fill(lastName);
  await page.getByRole('button', { name: 'Check in', exact: true }).click();
}

describe.skipIf(!browserAvailable())('kiosk in a real browser: the lobby tells the truth', () => {
  let server: TestServer;
  let browser: Browser;
  let web: KioskWeb;

  kioskBrowserHooks((started) => ({ server, browser, web } = started));

  const open = (site: KioskTestSite, pin?: string) =>
    openKioskPage(browser, web, {
      serverUrl: server.baseUrl,
      token: site.kioskToken,
      siteId: site.siteId,
      mode: 'visitor',
      pin,
    });
  const statusBar = (page: Page) => page.getByRole('status');
  const watchlist = async (site: KioskTestSite, body: Record<string, string>) =>
    expect((await site.api.post('/v1/watchlist/people', body)).status).toBe(201);
  const serverStatuses = async (site: KioskTestSite) =>
    (await site.api.get<{ data: PersonCheckin[] }>(`/v1/sites/${site.siteId}/checkins/people?limit=200`)).body.data.map(
      (checkin) => `${checkin.person.firstName} ${checkin.status}`,
    );
  /** The digest is on the device (fetched with the first pull). */
  const digestKept = (page: Page) =>
    expect.poll(() => storeCount(page, 'watchlistDigests'), { timeout: 10_000 }).toBe(1);

  for (const network of ['online', 'offline'] as const) {
    it(`a watchlisted visitor checking in ${network} is asked to see reception, never welcomed; the server says STOP`, async () => {
      const site = await kioskSite(server, 'Lobby');
      await watchlist(site, { firstName: 'Mallory', lastName: 'Mole', reason: 'Took a laptop in May' });
      const { context, page } = await open(site);
      await digestKept(page);
      const shown = await recordConfirmations(page);
      if (network === 'offline') {
        await context.setOffline(true);
        await expect.poll(() => statusBar(page).textContent()).toContain('Offline');
      }
      await checkIn(page, 'Mallory', 'Mole');
      await page.getByRole('heading', { name: 'Please see reception' }).waitFor();
      await screenshot(page, `kiosk-see-reception-${network}`);
      expect(await page.getByRole('alert').textContent()).not.toMatch(/welcome|checked in/i);
      expect(await outboxCount(page)).toBeLessThanOrEqual(1);
      if (network === 'offline') await context.setOffline(false);
      await expect.poll(() => serverStatuses(site), { timeout: 10_000 }).toEqual(['Mallory STOP']);
      // The same person again: the form's "already here" notice does not say checked in either.
      await page.getByRole('button', { name: 'Done' }).click();
      await checkIn(page, 'Mallory', 'Mole');
      await page.locator('.form-notice').getByText('Please see reception').waitFor();
      const texts = (await shown()).join('\n');
      expect(texts).toContain('Please see reception');
      expect(texts).not.toMatch(/welcome|checked in/i);
      // And an ordinary visitor is still welcomed.
      await page.getByRole('button', { name: 'Back' }).click();
      await checkIn(page, 'Ada', 'Lovelace');
      await page.getByText('Welcome, Ada').waitFor();
      await context.close();
    }, 40_000);
  }

  it("a digest fetched before the entry was added misses it: the server's STOP is recorded, and the kiosk then shows it", async () => {
    const site = await kioskSite(server, 'Lobby');
    const { context, page } = await open(site);
    await digestKept(page);
    await context.setOffline(true);
    await expect.poll(() => statusBar(page).textContent()).toContain('Offline');
    await watchlist(site, { email: 'late@example.com' });
    await page.getByRole('button', { name: 'Check in', exact: true }).click();
    await page.getByLabel('First name', { exact: true }).fill('Late');
    await page.getByLabel('Last name', { exact: true }).fill('Comer');
    await page.getByLabel('Email').fill('LATE@example.com');
    await page.getByRole('button', { name: 'Check in', exact: true }).click();
    // What the kiosk could know: nothing, so it welcomed her.
    await page.getByText('Welcome, Late').waitFor();
    await page.getByRole('button', { name: 'Done' }).click();
    await context.setOffline(false);
    await expect.poll(() => serverStatuses(site), { timeout: 10_000 }).toEqual(['Late STOP']);
    await expect.poll(() => outboxCount(page), { timeout: 10_000 }).toBe(0);
    await page.getByRole('button', { name: 'Roll call' }).click();
    const row = page.getByRole('row', { name: /Comer, Late/ });
    await expect.poll(() => row.textContent(), { timeout: 10_000 }).toContain('Please see reception');
    await context.close();
  }, 40_000);

  it('with a PIN, Roll call and Needs attention are refused without it; an evacuation reaches Roll call in two taps plus the PIN', async () => {
    const site = await kioskSite(server, 'Lobby');
    await site.api.post(`/v1/sites/${site.siteId}/checkins/people`, {
      person: { firstName: 'Grace', lastName: 'Hopper', company: 'Navy' },
    });
    const { context, page } = await open(site, '2468');
    await expect.poll(() => statusBar(page).textContent()).toContain('All synced');
    const names = () => page.locator('main').textContent();

    await page.getByRole('button', { name: 'Roll call' }).click();
    await page.getByRole('heading', { name: 'Roll call is locked' }).waitFor();
    expect(await names()).not.toContain('Hopper');
    await page.getByLabel('Settings PIN').fill('1111');
    await page.getByRole('button', { name: 'Unlock' }).click();
    await expect.poll(() => page.getByRole('alert').textContent()).toBe('That PIN is not right.');
    expect(await names()).not.toContain('Hopper');
    await screenshot(page, 'kiosk-roll-call-locked');

    await page.getByRole('button', { name: 'Needs attention' }).click();
    await page.getByRole('heading', { name: 'Needs attention is locked' }).waitFor();
    expect(await page.getByText('Nothing needs attention').count()).toBe(0);
    await page.getByRole('button', { name: 'Back' }).click();

    // The evacuation: Roll call (one tap), the PIN, Unlock (two).
    await page.getByRole('button', { name: 'Roll call' }).click();
    await page.getByLabel('Settings PIN').fill('2468');
    await page.getByRole('button', { name: 'Unlock' }).click();
    await page.getByRole('row', { name: /Hopper, Grace/ }).waitFor();
    // Leaving it locks it again.
    await page.getByRole('button', { name: 'Home' }).click();
    await page.getByRole('button', { name: 'Roll call' }).click();
    await page.getByRole('heading', { name: 'Roll call is locked' }).waitFor();
    expect(await names()).not.toContain('Hopper');
    await context.close();
  }, 40_000);

  it('with a PIN, an unlocked Needs attention locks after a while without input, and Roll call only after ten times as long', async () => {
    const site = await kioskSite(server, 'Lobby');
    await site.api.post(`/v1/sites/${site.siteId}/checkins/people`, {
      person: { firstName: 'Grace', lastName: 'Hopper' },
    });
    const { context, page } = await openKioskPage(browser, web, {
      serverUrl: server.baseUrl,
      token: site.kioskToken,
      siteId: site.siteId,
      mode: 'visitor',
      pin: '2468',
      query: { idle: '1000' },
    });
    const unlock = async (tab: string) => {
      await page.getByRole('button', { name: tab }).click();
      await page.getByLabel('Settings PIN').fill('2468');
      await page.getByRole('button', { name: 'Unlock' }).click();
    };
    await unlock('Needs attention');
    await page.getByText('Nothing needs attention').waitFor();
    await page.getByRole('button', { name: 'Check in', exact: true }).waitFor({ timeout: 3_000 });

    await unlock('Roll call');
    const row = page.getByRole('row', { name: /Hopper, Grace/ });
    await row.waitFor();
    await new Promise((resolve) => setTimeout(resolve, 3_000));
    expect(await row.count()).toBe(1);
    await row.waitFor({ state: 'detached', timeout: 12_000 });
    await page.getByRole('button', { name: 'Check in', exact: true }).waitFor();
    await context.close();
  }, 40_000);

  it('suggests a PIN once paired on the setup screen, and the PIN set there locks Roll call', async () => {
    const site = await kioskSite(server, 'Lobby');
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    context.setDefaultTimeout(10_000);
    const page = await context.newPage();
    await page.goto(web.url);
    await page.getByLabel('Server address').fill(server.baseUrl);
    await page.getByText('Pair with a kiosk token instead').click();
    await page.getByLabel('Kiosk token').fill(site.kioskToken);
    await page.getByRole('button', { name: 'Find sites' }).click();
    await page.getByRole('radio', { name: 'Lobby', exact: true }).check();
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByRole('heading', { name: 'Set a settings PIN?' }).waitFor();
    await screenshot(page, 'kiosk-suggest-pin');
    await page.getByLabel('New settings PIN').fill('8642');
    await page.getByLabel('The same PIN again').fill('8641');
    await page.getByRole('button', { name: 'Set PIN' }).click();
    await expect.poll(() => page.getByRole('alert').textContent()).toContain('not the same');
    await page.getByLabel('The same PIN again').fill('8642');
    await page.getByRole('button', { name: 'Set PIN' }).click();
    await page.getByRole('button', { name: 'Roll call' }).click();
    await page.getByRole('heading', { name: 'Roll call is locked' }).waitFor();
    // Kept on the device: after a reload Settings asks for it too.
    await page.reload();
    await page.getByRole('button', { name: 'Settings' }).click();
    await page.getByLabel('Settings PIN').fill('8642');
    await page.getByRole('button', { name: 'Unlock' }).click();
    await page.getByRole('heading', { name: 'Kiosk setup' }).waitFor();
    await context.close();
  }, 40_000);
});
