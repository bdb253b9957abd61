import type { Browser, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import type { PersonCheckin } from '../../shared/src/schemas/personCheckins';
import { browserAvailable } from '../support/browser';
import { type KioskTestSite, kioskSite } from '../support/factories';
import { checkInThroughForm, kioskBrowserHooks, type KioskWeb, openKioskPage, screenshot } from '../support/kioskWeb';
import type { TestServer } from '../support/testServer';

// A visitor who is on site already and tries to check in again is told so and offered Check out. Choosing
// it must not make them type their name again: the visit they were told about is offered at once.

/** How long the idle test lets the kiosk wait for input (`?idle=`), instead of the real minute. */
const IDLE_MS = 1_500;

describe.skipIf(!browserAvailable())('kiosk in a real browser: a visitor already on site checks out', () => {
  let server: TestServer;
  let browser: Browser;
  let web: KioskWeb;

  kioskBrowserHooks((started) => ({ server, browser, web } = started));

  const open = async (site: KioskTestSite, query?: Record<string, string>) =>
    openKioskPage(browser, web, {
      serverUrl: server.baseUrl,
      token: site.kioskToken,
      siteId: site.siteId,
      mode: 'visitor',
      query,
    });

  const checkInButton = (page: Page) => page.getByRole('button', { name: 'Check in', exact: true });
  const visitorHome = (page: Page) => page.getByRole('heading', { name: 'Welcome', exact: true });
  const findYourName = (page: Page) => page.getByLabel('Find your name');
  /** The visit offered under the search: a card whose name is a second-level heading (a chosen person's is the title). */
  const offeredCard = (page: Page) =>
    page.locator('.person-card').filter({ has: page.getByRole('heading', { level: 2, name: 'Ada Lovelace' }) });
  const goodbye = (page: Page) => page.getByText('Goodbye, Ada');

  /** Fills the check-in form with a name already on site and submits it, up to the "already checked in" notice. */
  async function tryCheckInAgain(page: Page, firstName: string, lastName: string): Promise<void> {
    await checkInButton(page).click();
    await page.getByLabel('First name', { exact: true }).fill(firstName);
    await page.getByLabel('Last name', { exact: true }).fill(lastName);
    await checkInButton(page).click();
    await page.getByText(/You have been checked in since/).waitFor();
  }

  it('Check out on the notice opens Find your name with the name searched and that visit offered: one more tap checks out', async () => {
    const site = await kioskSite(server, 'Headquarters');
    const { context, page } = await open(site);
    await checkInThroughForm(page, 'Ada', 'Lovelace');
    await page.getByRole('button', { name: 'Done' }).click();

    // Typed in another case and with spaces around it: the search holds the name as the kiosk has it.
    await tryCheckInAgain(page, ' ada ', 'LOVELACE ');
    const noticeCheckOut = page.getByRole('button', { name: 'Check out', exact: true });
    const box = await noticeCheckOut.boundingBox();
    if (!box) throw new Error('the notice has no Check out button');
    const x = box.x + box.width / 2;
    const y = box.y + box.height / 2;
    await page.mouse.click(x, y);

    await offeredCard(page).waitFor();
    expect(await findYourName(page).inputValue()).toBe('Ada Lovelace');
    expect(await offeredCard(page).textContent()).toContain('On site');
    // Focus is on the name offered (the button that led here is gone), not in the search, whose on-screen
    // keyboard would cover the offer.
    await expect
      .poll(() =>
        page.evaluate(() => `${document.activeElement?.tagName ?? ''}: ${document.activeElement?.textContent ?? ''}`),
      )
      .toBe('H2: Ada Lovelace');
    await screenshot(page, 'kiosk-already-on-site-check-out');

    // The second tap of a double tap on the notice's Check out lands where that button was, now that the
    // offer is shown: no button may be there, or it would check out (or start a break) unseen.
    expect(
      await page.evaluate(([px, py]) => document.elementFromPoint(px ?? 0, py ?? 0)?.closest('button') == null, [x, y]),
    ).toBe(true);

    await offeredCard(page).getByRole('button', { name: 'Check out', exact: true }).click();
    await goodbye(page).waitFor();
    await expect
      .poll(
        async () => {
          const response = await site.api.get<{ data: PersonCheckin[] }>(`/v1/sites/${site.siteId}/checkins/people`);
          return response.body.data.map((visit) => visit.status);
        },
        { timeout: 15_000 },
      )
      .toEqual(['OUT']);
    await context.close();
  }, 40_000);

  it('lists a namesake under the visit offered, so each can still choose their own', async () => {
    const site = await kioskSite(server, 'Headquarters');
    const { context, page } = await open(site);
    await checkInThroughForm(page, 'Ada', 'Lovelace');
    await page.getByRole('button', { name: 'Done' }).click();
    // A second Ada Lovelace, from another company, checks in anyway.
    await checkInButton(page).click();
    await page.getByLabel('First name', { exact: true }).fill('Ada');
    await page.getByLabel('Last name', { exact: true }).fill('Lovelace');
    await page.getByLabel('Company').fill('Analytical Engines');
    await checkInButton(page).click();
    await page.getByRole('button', { name: 'Check in anyway' }).click();
    await page.getByText('Welcome, Ada').waitFor();
    await page.getByRole('button', { name: 'Done' }).click();

    // The notice names the latest of them: that one is offered, the other is listed beneath it.
    await tryCheckInAgain(page, 'Ada', 'Lovelace');
    await page.getByRole('button', { name: 'Check out', exact: true }).click();
    await offeredCard(page).waitFor();
    expect(await offeredCard(page).textContent()).toContain('Analytical Engines');
    const listed = page.getByRole('list', { name: 'Matching people' }).getByRole('button');
    await expect.poll(() => listed.count()).toBe(1);
    expect(await listed.textContent()).toContain('Ada Lovelace');
    expect(await listed.textContent()).not.toContain('Analytical Engines');

    // The first Ada chooses herself from the list and checks out; the one offered stays on site.
    await listed.click();
    await page.getByRole('heading', { level: 1, name: 'Ada Lovelace' }).waitFor();
    await page.getByRole('button', { name: 'Check out', exact: true }).click();
    await goodbye(page).waitFor();
    await page.getByRole('button', { name: 'Done' }).click();
    await page.getByRole('button', { name: 'Check out', exact: true }).click();
    await findYourName(page).fill('Ada');
    await expect.poll(() => listed.count()).toBe(1);
    expect(await listed.textContent()).toContain('Analytical Engines');
    await context.close();
  }, 40_000);

  it('does not keep the name for the next visitor: after a while without input, Check out opens empty', async () => {
    const site = await kioskSite(server, 'Headquarters');
    const { context, page } = await open(site, { idle: String(IDLE_MS) });
    await visitorHome(page).waitFor();
    await checkInThroughForm(page, 'Ada', 'Lovelace');
    await page.getByRole('button', { name: 'Done' }).click();
    await tryCheckInAgain(page, 'Ada', 'Lovelace');
    await page.getByRole('button', { name: 'Check out', exact: true }).click();
    await offeredCard(page).waitFor();

    await visitorHome(page).waitFor({ timeout: IDLE_MS + 3_000 });
    await page.getByRole('button', { name: 'Check out', exact: true }).click();
    await findYourName(page).waitFor();
    expect(await findYourName(page).inputValue()).toBe('');
    expect(await page.getByRole('heading', { name: 'Ada Lovelace' }).count()).toBe(0);
    expect(await page.getByRole('list', { name: 'Matching people' }).getByRole('button').count()).toBe(0);
    await context.close();
  }, 40_000);
});
