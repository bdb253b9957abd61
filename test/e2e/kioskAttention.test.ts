import type { Browser, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { browserAvailable } from '../support/browser';
import { type KioskTestSite, kioskSite } from '../support/factories';
import { forgetCachedFormVersions, requireBadgeNumber } from '../support/checkinConfig';
import {
  checkInThroughForm,
  kioskBrowserHooks,
  kioskContext,
  type KioskWeb,
  openKioskPage,
  outboxCount,
  storeCount,
} from '../support/kioskWeb';
import type { TestServer } from '../support/testServer';

type Site = KioskTestSite;

describe.skipIf(!browserAvailable())('kiosk in a real browser: Needs attention details, Discard, Roll call age', () => {
  let server: TestServer;
  let browser: Browser;
  let web: KioskWeb;

  kioskBrowserHooks((started) => ({ server, browser, web } = started));
  const newSite = () => kioskSite(server, 'Front desk');

  const statusBar = (page: Page) => page.getByRole('status');

  /** The site starts asking for a badge number while the kiosk still uses its cached form (no badge field). */
  async function refusedCheckIn(page: Page, site: Site, firstName: string, lastName: string): Promise<void> {
    await expect.poll(() => storeCount(page, 'siteConfigs')).toBe(1);
    // A copy naming no version is checked against the current form (a versioned one would be accepted).
    expect(await forgetCachedFormVersions(page)).toBe(1);
    await requireBadgeNumber(site);
    await checkInThroughForm(page, firstName, lastName);
    await expect.poll(() => statusBar(page).textContent(), { timeout: 10_000 }).toContain('1 needs attention');
    await page.getByRole('button', { name: 'Done' }).click();
  }

  const rollCallNames = async (page: Page) => {
    await page.getByRole('button', { name: 'Roll call' }).click();
    await page.getByRole('heading', { name: 'Roll call' }).waitFor();
    return page.locator('tbody th').allTextContents();
  };

  it('a check-in refused for a detail the server wants says which; Discard asks first and says the person leaves the Roll call', async () => {
    const site = await newSite();
    const { context, page } = await openKioskPage(browser, web, {
      serverUrl: server.baseUrl,
      token: site.kioskToken,
      siteId: site.siteId,
      mode: 'visitor',
    });
    await refusedCheckIn(page, site, 'Rosa', 'Parks');
    expect((await rollCallNames(page)).join()).toContain('Parks, Rosa');

    await page.getByRole('button', { name: 'Needs attention' }).click();
    const item = page.getByRole('listitem').filter({ hasText: 'Check-in of Rosa Parks' });
    await item.waitFor();
    // The field the server named, not only "some details were not accepted".
    const details = item.getByRole('list', { name: 'Details not accepted' });
    expect(await details.innerText()).toContain('Badge number is required');
    expect(await item.innerText()).toContain('Retry sends the same details again');

    // Discard only asks: nothing is gone until the person says yes.
    await item.getByRole('button', { name: 'Discard' }).click();
    const dialog = page.getByRole('dialog', { name: 'Discard this check-in of Rosa Parks?' });
    await dialog.waitFor();
    expect(await dialog.innerText()).toContain('Rosa Parks will leave the Roll call');
    await dialog.getByRole('button', { name: 'No, keep it' }).click();
    await dialog.waitFor({ state: 'hidden' });
    expect(await outboxCount(page)).toBe(1);
    expect((await rollCallNames(page)).join()).toContain('Parks, Rosa');

    await page.getByRole('button', { name: 'Needs attention' }).click();
    await item.getByRole('button', { name: 'Discard' }).click();
    await dialog.getByRole('button', { name: 'Yes, discard' }).click();
    await expect.poll(() => page.getByRole('alert').textContent()).toContain('Discarded Check-in of Rosa Parks');
    expect(await outboxCount(page)).toBe(0);
    expect((await rollCallNames(page)).join()).not.toContain('Parks');
    await context.close();
  }, 40_000);

  it('with a Settings PIN set, Discard needs that PIN', async () => {
    const site = await newSite();
    const { context, page } = await openKioskPage(browser, web, {
      serverUrl: server.baseUrl,
      token: site.kioskToken,
      siteId: site.siteId,
      mode: 'visitor',
      pin: '2468',
    });
    await refusedCheckIn(page, site, 'Ida', 'Wells');
    await page.getByRole('button', { name: 'Needs attention' }).click();
    // Needs attention itself is behind the PIN (it lists visitors by name); Discard asks again.
    await page.getByLabel('Settings PIN').fill('2468');
    await page.getByRole('button', { name: 'Unlock' }).click();
    await page
      .getByRole('listitem')
      .filter({ hasText: 'Check-in of Ida Wells' })
      .getByRole('button', { name: 'Discard' })
      .click();
    const dialog = page.getByRole('dialog', { name: 'Discard this check-in of Ida Wells?' });
    await dialog.waitFor();
    expect(await dialog.innerText()).toContain('Discarding needs the settings PIN');

    await dialog.getByRole('button', { name: 'Yes, discard' }).click();
    await expect.poll(() => dialog.getByRole('alert').textContent()).toContain('That PIN is not right');
    await dialog.getByLabel('Settings PIN').fill('1357');
    await dialog.getByRole('button', { name: 'Yes, discard' }).click();
    expect(await outboxCount(page)).toBe(1);

    await dialog.getByLabel('Settings PIN').fill('2468');
    await dialog.getByRole('button', { name: 'Yes, discard' }).click();
    await expect.poll(() => page.getByRole('alert').textContent()).toContain('Discarded Check-in of Ida Wells');
    expect(await outboxCount(page)).toBe(0);
    await context.close();
  }, 40_000);

  it('Discard and Settings count wrong PINs together: switching prompts buys no more guesses', async () => {
    const site = await newSite();
    const { context, page } = await openKioskPage(browser, web, {
      serverUrl: server.baseUrl,
      token: site.kioskToken,
      siteId: site.siteId,
      mode: 'visitor',
      pin: '2468',
    });
    await refusedCheckIn(page, site, 'Mary', 'Seacole');
    await page.getByRole('button', { name: 'Needs attention' }).click();
    await page.getByLabel('Settings PIN').fill('2468');
    await page.getByRole('button', { name: 'Unlock' }).click();
    const discard = page
      .getByRole('listitem')
      .filter({ hasText: 'Check-in of Mary Seacole' })
      .getByRole('button', { name: 'Discard' });
    await discard.click();
    const dialog = page.getByRole('dialog', { name: 'Discard this check-in of Mary Seacole?' });
    // Four wrong PINs at Discard (one short of the pause)…
    for (let attempt = 0; attempt < 4; attempt += 1) {
      await dialog.getByLabel('Settings PIN').fill('0000');
      await dialog.getByRole('button', { name: 'Yes, discard' }).click();
      await expect.poll(() => dialog.getByRole('alert').textContent()).toContain('That PIN is not right');
    }
    await dialog.getByRole('button', { name: 'No, keep it' }).click();
    // …and the fifth at Settings pauses both prompts.
    await page.getByRole('button', { name: 'Settings' }).click();
    await page.getByLabel('Settings PIN').fill('0000');
    await page.getByRole('button', { name: 'Unlock' }).click();
    await expect.poll(() => page.getByRole('alert').textContent()).toBe('Too many wrong PINs. Try again in a minute.');
    await page.getByRole('button', { name: 'Back' }).click();
    // The pause holds Needs attention shut as well: the same prompt, the same count.
    await page.getByRole('button', { name: 'Needs attention' }).click();
    await expect.poll(() => page.getByRole('alert').textContent()).toBe('Too many wrong PINs. Try again in a minute.');
    expect(await page.getByRole('button', { name: 'Unlock' }).isDisabled()).toBe(true);
    expect(await discard.count()).toBe(0);
    expect(await outboxCount(page)).toBe(1);
    await context.close();
  }, 40_000);

  it('the Roll call says how old it is, and says so plainly when the server has been away', async () => {
    const site = await newSite();
    const context = await kioskContext(browser);
    // The browser's clock, so that "an hour later" takes no hour; it runs on by itself until moved.
    await context.clock.install();
    const page = await context.newPage();
    const query = new URLSearchParams({
      server: server.baseUrl,
      token: site.kioskToken,
      site: String(site.siteId),
      mode: 'visitor',
    });
    await page.goto(`${web.url}?${query}`);
    await statusBar(page).getByText('Online').waitFor();

    await rollCallNames(page);
    const age = page.getByText(/^Up to date as of/);
    await age.waitFor();
    const fresh = await age.innerText();
    expect(fresh).toMatch(/^Up to date as of (\w+ )?\d{1,2}:\d{2}( [AP]M)?\.$/);

    // The server goes away for an hour: the list is the same, and now says how old it is.
    await context.setOffline(true);
    await statusBar(page).getByText('Offline').waitFor();
    await page.clock.fastForward('01:00:00');
    await expect.poll(() => age.innerText()).toContain('That was 60 minutes ago');
    const stale = await age.innerText();
    // The same moment; an hour on may be another day, which then names the weekday ("as of Sat 23:36.").
    const moment = /(\d{1,2}:\d{2}(?: [AP]M)?)\.$/.exec(fresh)?.[1] ?? '';
    expect(stale).toMatch(new RegExp(`^Up to date as of (\\w+ )?${moment}\\. `));
    expect(stale).toContain('It has not been updated from the server since');
    await context.close();
  }, 40_000);

  it('a kiosk that has never reached its server says its Roll call holds only its own check-ins', async () => {
    const site = await newSite();
    const context = await kioskContext(browser);
    const page = await context.newPage();
    // Nothing listens on port 9: every request is refused at once.
    const query = new URLSearchParams({
      server: 'http://127.0.0.1:9',
      token: site.kioskToken,
      site: String(site.siteId),
      mode: 'visitor',
    });
    await page.goto(`${web.url}?${query}`);
    await statusBar(page).getByText('Offline').waitFor();
    await checkInThroughForm(page, 'Mary', 'Seacole');
    await page.getByRole('button', { name: 'Done' }).click();

    expect(await rollCallNames(page)).toEqual([expect.stringContaining('Seacole, Mary')]);
    await page.getByText('Not yet synced with the server: showing only check-ins made on this kiosk.').waitFor();
    await context.close();
  }, 40_000);
});
