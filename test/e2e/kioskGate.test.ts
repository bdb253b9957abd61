import type { Browser, BrowserContext } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import type { VehicleCheckin } from '../../shared/src/schemas/vehicles';
import { browserAvailable } from '../support/browser';
import { type KioskTestSite, kioskSite } from '../support/factories';
import {
  exitButton,
  gateResult,
  kioskBrowserHooks,
  type KioskWeb,
  newestResult,
  onSiteList,
  openGatePage,
  outboxCount,
  plateInput,
  scan,
  serverVehicleVisits,
  slowSearch,
} from '../support/kioskWeb';
import type { TestServer } from '../support/testServer';

type Site = KioskTestSite;

describe.skipIf(!browserAvailable())(
  "kiosk gate in a real browser: scans while busy, refusals in words, a scanner's CR+LF",
  () => {
    let server: TestServer;
    let browser: Browser;
    let web: KioskWeb;

    kioskBrowserHooks((started) => ({ server, browser, web } = started));
    const newSite = () => kioskSite(server, 'North gate', 'gate');

    const openGate = (site: Site, beforeLoad?: (context: BrowserContext) => Promise<unknown>) =>
      openGatePage({ server, browser, web }, site, beforeLoad);
    /** The site's vehicle list as the kiosk pulls it, without `plate`: as if made at another gate after the last pull. */
    const hideFromPull = (context: BrowserContext, plate: string) =>
      context.route(/\/v1\/sites\/\d+\/checkins\/vehicles(\?|$)/, async (route) => {
        if (route.request().method() !== 'GET') return route.fallback();
        const response = await route.fetch();
        const listed = (await response.json()) as { data: VehicleCheckin[] };
        await route.fulfill({
          response,
          json: { ...listed, data: listed.data.filter((visit) => visit.licensePlate !== plate) },
        });
      });

    it('a plate scanned with its Enter while a refused Exit is busy is recorded when Exit ends, never run into the refused plate', async () => {
      const site = await newSite();
      const { context, page } = await openGate(site);
      const searches = await slowSearch(context, 2_000);

      // DD 444 is on site nowhere: Exit asks the server (2 s) and is refused; EE 555 is scanned meanwhile.
      await page.keyboard.type('DD 444', { delay: 5 });
      await exitButton(page).click();
      await scan(page, 'EE 555');
      await expect.poll(() => newestResult(page).innerText(), { timeout: 10_000 }).toMatch(/EE555\s+PENDING/);
      expect(searches.count).toBe(1);
      expect(await plateInput(page).inputValue()).toBe('');
      await expect.poll(() => onSiteList(page)).toEqual(['EE555']);

      // The next Enter finds nothing to record: no plate made of the two.
      await page.keyboard.press('Enter');
      await page.waitForTimeout(300);
      expect(await onSiteList(page)).toEqual(['EE555']);
      await expect.poll(() => outboxCount(page), { timeout: 10_000 }).toBe(0);
      expect(await serverVehicleVisits(site)).toEqual(['EE 555 PENDING']);
      await context.close();
    }, 40_000);

    it('plates scanned with their Enters while a recorded Exit is busy are each recorded, in order, when Exit ends', async () => {
      const site = await newSite();
      // DD 444 enters at another gate, unseen by this kiosk: not in its pulls (from its first, so none already
      // under way can bring it in), and its event stream is down (else it would read the visit at once). Exit
      // has to ask the server, slowly.
      const { context, page } = await openGate(site, async (opening) => {
        await hideFromPull(opening, 'DD 444');
        await opening.route('**/v1/events', (route) => route.abort());
      });
      const searches = await slowSearch(context, 2_000);
      expect(
        (await site.api.post(`/v1/sites/${site.siteId}/checkins/vehicles`, { licensePlate: 'DD 444' })).status,
      ).toBe(201);

      await page.keyboard.type('DD 444', { delay: 5 });
      await exitButton(page).click();
      await scan(page, 'EE 555');
      await scan(page, 'FF 666');
      await expect.poll(() => newestResult(page).innerText(), { timeout: 10_000 }).toMatch(/FF666\s+PENDING/);
      expect(searches.count).toBe(1);
      expect(await plateInput(page).inputValue()).toBe('');
      await expect.poll(() => onSiteList(page)).toEqual(['EE555', 'FF666']);
      await expect.poll(() => outboxCount(page), { timeout: 10_000 }).toBe(0);
      expect(await serverVehicleVisits(site)).toEqual(['DD 444 OUT', 'EE 555 PENDING', 'FF 666 PENDING']);
      await context.close();
    }, 40_000);

    it('a refused plate stays for one more press when nothing was scanned meanwhile', async () => {
      const site = await newSite();
      const { context, page } = await openGate(site);
      await scan(page, 'GG 777');
      await expect.poll(() => newestResult(page).innerText()).toMatch(/GG777\s+PENDING/);
      // Already on site: the plate stays, so Exit is one press away.
      await scan(page, 'GG 777');
      await expect.poll(() => newestResult(page).innerText()).toMatch(/not recorded/i);
      expect(await plateInput(page).inputValue()).toBe('GG 777');
      await exitButton(page).click();
      await expect.poll(() => newestResult(page).innerText()).toMatch(/GG777\s+OUT/);
      expect(await plateInput(page).inputValue()).toBe('');
      await context.close();
    }, 40_000);

    it('a refusal says its own cause: the plate rule broken, no such vehicle on site (online and offline), the status of one already on site', async () => {
      const site = await newSite();
      const { context, page } = await openGate(site);
      const refusal = async () => {
        await expect.poll(() => newestResult(page).innerText()).toMatch(/not recorded/i);
        return newestResult(page).innerText();
      };
      const clearAfter = async () => plateInput(page).fill('');

      await scan(page, 'AB 12$');
      const words = await refusal();
      expect(words).toContain('A license plate holds letters, digits 0-9, spaces, "-", "." and "·" only.');
      expect(words).not.toContain('Some details were not accepted');
      await clearAfter();

      await scan(page, 'ABCDEFGHJKLMNPQRS');
      expect(await refusal()).toContain('A license plate has at most 16 letters and digits');
      await clearAfter();

      await page.keyboard.type('QQ 111', { delay: 5 });
      await exitButton(page).click();
      await expect.poll(() => newestResult(page).innerText()).toContain('QQ111 has no open visit on this site.');
      expect(await newestResult(page).innerText()).not.toContain('does not know this site');
      await clearAfter();

      await scan(page, 'RR 222');
      await expect.poll(() => newestResult(page).innerText()).toMatch(/RR222\s+PENDING/);
      await scan(page, 'rr-222');
      await expect.poll(() => newestResult(page).innerText()).toContain('RR222 is already on site (PENDING).');
      await clearAfter();

      await context.setOffline(true);
      await expect.poll(() => page.getByRole('status').textContent()).toContain('Offline');
      await page.keyboard.type('SS 333', { delay: 5 });
      await exitButton(page).click();
      await expect
        .poll(() => newestResult(page).innerText())
        .toContain('No visit of SS333 is known here, and the server cannot be asked offline.');
      expect(await newestResult(page).innerText()).not.toContain('does not know this site');
      await context.close();
    }, 40_000);

    it('an empty Enter right after a result (a scanner sending CR+LF) leaves the result; an empty Entry press still explains itself', async () => {
      const site = await newSite();
      const { context, page } = await openGate(site);

      await scan(page, 'HH 888');
      await expect.poll(() => newestResult(page).innerText()).toMatch(/HH888\s+PENDING/);
      // The scanner's LF, just after the result came.
      await page.keyboard.press('Enter');
      await page.waitForTimeout(300);
      expect(await newestResult(page).innerText()).toMatch(/HH888\s+PENDING/);
      expect(await gateResult(page).innerText()).not.toContain('Type or scan');

      // CR and LF together, as a scanner sends them: one Entry, and its result stays (waited for: a loaded
      // machine may take longer than any fixed pause to save and show it, then 300 ms more for the LF's effect).
      await page.keyboard.type('JJ 999', { delay: 5 });
      await page.keyboard.press('Enter');
      await page.keyboard.press('Enter');
      await expect.poll(() => newestResult(page).innerText(), { timeout: 10_000 }).toMatch(/JJ999\s+PENDING/);
      await page.waitForTimeout(300);
      expect(await newestResult(page).innerText()).toMatch(/JJ999\s+PENDING/);
      expect(await gateResult(page).innerText()).not.toContain('Type or scan');
      await expect.poll(() => onSiteList(page)).toEqual(['HH888', 'JJ999']);

      // A guard's deliberate press on Entry with nothing typed is told why nothing happened.
      await page.getByRole('button', { name: 'Entry', exact: true }).click();
      await expect.poll(() => gateResult(page).innerText()).toContain('Type or scan a license plate first.');
      // Not a result: it pushes none out.
      expect(await newestResult(page).innerText()).toMatch(/JJ999\s+PENDING/);
      await context.close();
    }, 40_000);
  },
);
