import type { Browser, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import type { PersonCheckin } from '../../shared/src/schemas/personCheckins';
import { defaultCheckinConfig } from '../../shared/src/schemas/sites';
import { browserAvailable } from '../support/browser';
import { putCheckinConfig } from '../support/checkinConfig';
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

/** The statuses of the people the kiosk keeps, read from its database (not from what the screen says). */
function keptStatuses(page: Page): Promise<string[]> {
  return page.evaluate(
    () =>
      new Promise<string[]>((resolve, reject) => {
        const request = indexedDB.open('gatehouse-kiosk');
        request.onerror = () => reject(new Error(String(request.error)));
        request.onsuccess = () => {
          const db = request.result;
          const all = db.transaction('people').objectStore('people').getAll();
          all.onsuccess = () => {
            resolve((all.result as Array<{ status: string }>).map((visit) => visit.status));
            db.close();
          };
          all.onerror = () => reject(new Error(String(all.error)));
        };
      }),
  );
}

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
      const firstTime = await page.locator('main').innerText();
      await screenshot(page, `kiosk-see-reception-${network}`);
      expect(await page.getByRole('alert').textContent()).not.toMatch(/welcome|checked in/i);
      expect(await outboxCount(page)).toBeLessThanOrEqual(1);
      if (network === 'offline') await context.setOffline(false);
      await expect.poll(() => serverStatuses(site), { timeout: 10_000 }).toEqual(['Mallory STOP']);
      // The same person again sees exactly what she saw the first time, and nothing else: no Check out, no
      // Check in anyway, no hint that a record of her exists; nothing more is recorded.
      // (The confirmation has gone home by itself meanwhile, or goes now.)
      await page.getByRole('button', { name: 'Check in', exact: true }).waitFor();
      await checkIn(page, 'Mallory', 'Mole');
      await page.getByRole('heading', { name: 'Please see reception' }).waitFor();
      expect(await page.locator('main').innerText()).toBe(firstTime);
      await screenshot(page, `kiosk-see-reception-again-${network}`);
      for (const name of ['Check out', 'Check in anyway', 'Check in'])
        expect(await page.getByRole('button', { name, exact: true }).count()).toBe(0);
      expect(await page.locator('main').innerText()).not.toMatch(/already|since|record/i);
      await expect.poll(() => outboxCount(page), { timeout: 10_000 }).toBe(0);
      expect(await serverStatuses(site)).toEqual(['Mallory STOP']);
      const texts = (await shown()).join('\n');
      expect(texts).toContain('Please see reception');
      expect(texts).not.toMatch(/welcome|checked in/i);
      await page.getByRole('button', { name: 'Done' }).click();
      // And an ordinary visitor is still welcomed.
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
    // Once the server has said STOP, she is not on the Roll call, and trying again she is sent to reception.
    await page.getByRole('button', { name: 'Roll call' }).click();
    await page.getByRole('heading', { name: 'Roll call', exact: true }).waitFor();
    await expect.poll(() => page.locator('main').innerText(), { timeout: 10_000 }).toContain('Nobody is on site.');
    await page.getByRole('button', { name: 'Home' }).click();
    await checkIn(page, 'Late', 'Comer');
    await page.getByRole('heading', { name: 'Please see reception' }).waitFor();
    expect(await page.getByRole('button', { name: 'Check in anyway' }).count()).toBe(0);
    await context.close();
  }, 40_000);

  it('a visitor reception refused (no watchlist) who tries again, with another email, is sent to reception: nothing is recorded', async () => {
    const site = await kioskSite(server, 'Lobby');
    await putCheckinConfig(site, defaultCheckinConfig.fields, true);
    const { context, page } = await open(site);
    await checkIn(page, 'Victor', 'Vance');
    await page.getByText('Welcome, Victor').waitFor();
    await page.getByRole('button', { name: 'Done' }).click();
    await expect.poll(() => outboxCount(page), { timeout: 10_000 }).toBe(0);
    const [victor] = (await site.api.get<{ data: PersonCheckin[] }>(`/v1/sites/${site.siteId}/checkins/people`)).body
      .data;
    expect(victor?.status).toBe('PENDING');
    const denied = await site.api.post(`/v1/sites/${site.siteId}/checkins/people/${victor?.checkinId}/deny`, {
      reason: 'No appointment',
    });
    expect(denied.status).toBe(200);
    // The kiosk learns of it with its next pull (one is made on coming back online).
    await context.setOffline(true);
    await context.setOffline(false);
    await expect.poll(() => keptStatuses(page), { timeout: 15_000 }).toEqual(['STOP']);

    const shown = await recordConfirmations(page);
    await page.getByRole('button', { name: 'Check in', exact: true }).click();
    await page.getByLabel('First name', { exact: true }).fill('victor');
    await page.getByLabel('Last name', { exact: true }).fill('VANCE ');
    await page.getByLabel('Email').fill('someone.else@example.com');
    await page.getByRole('button', { name: 'Check in', exact: true }).click();
    await page.getByRole('heading', { name: 'Please see reception' }).waitFor();
    expect(await page.getByRole('button', { name: 'Check in anyway' }).count()).toBe(0);
    expect((await shown()).join('\n')).not.toMatch(/welcome|already|take a seat/i);
    expect(await outboxCount(page)).toBe(0);
    expect(await serverStatuses(site)).toEqual(['Victor STOP']);
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
    // Locked after its 1 s without input: well before Roll call's 10 s, with room for a loaded machine's timers.
    await page.getByRole('button', { name: 'Check in', exact: true }).waitFor({ timeout: 5_000 });

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
