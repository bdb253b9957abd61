import type { Browser, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { normalizePlate } from '../../shared/src/domain';
import { browserAvailable } from '../support/browser';
import { type KioskTestSite, kioskSite } from '../support/factories';
import {
  exitButton,
  gateResult,
  kioskBrowserHooks,
  type KioskWeb,
  openGatePage,
  outboxCount,
  plateFocused,
  plateInput,
  resultCards,
  resultTexts,
  scan,
  screenshot,
  serverVehicleVisits,
  slowSearch,
} from '../support/kioskWeb';
import type { TestServer } from '../support/testServer';
import { createVehicleLabel, registerVehicle } from '../support/vehicles';

type Site = KioskTestSite;

// A card as the guard reads it: headed by what happened, the plate as the gate compares it (normalized).
const headings: Record<string, string> = {
  PENDING: 'Waiting for a decision',
  STOP: 'Entry refused',
  IN: 'Entry allowed',
};
const entryCard = (plate: string, status: string): unknown =>
  expect.stringMatching(new RegExp(`^${headings[status] ?? ''}\\s+${normalizePlate(plate)}\\s+${status}\\b`));
const refusalCard = (plate: string, message: string): unknown =>
  expect.stringMatching(
    new RegExp(`^Not recorded\\s+${normalizePlate(plate)}\\s+${message.replace(/[.()]/g, '\\$&')}`),
  );
const noOpenVisit = (plate: string): unknown =>
  refusalCard(plate, `${normalizePlate(plate)} has no open visit on this site.`);

describe.skipIf(!browserAvailable())(
  'kiosk gate in a real browser: recent results, and actions that outlast the tab',
  () => {
    let server: TestServer;
    let browser: Browser;
    let web: KioskWeb;

    kioskBrowserHooks((started) => ({ server, browser, web } = started));
    const newSite = () => kioskSite(server, 'North gate', 'gate');
    const openGate = (site: Site) => openGatePage({ server, browser, web }, site);
    const tab = (page: Page, name: 'Home' | 'Roll call' | 'Settings') =>
      page.getByRole('button', { name, exact: true }).click();

    it('a refusal stays on screen under the Entries scanned while it was busy, each card follows its visit (STOP), the newest is largest', async () => {
      const site = await newSite();
      const ban = await createVehicleLabel(site.api, { blocksEntry: true });
      await registerVehicle(site.api, { licensePlate: 'BAN 1', labelIds: [ban.labelId] });
      const { context, page } = await openGate(site);
      await slowSearch(context, 3_000);

      // DD 444 is on site nowhere: Exit asks the server (3 s) and is refused; four cars are scanned meanwhile.
      await page.keyboard.type('DD 444', { delay: 5 });
      await exitButton(page).click();
      for (const plate of ['BAN 1', 'EE 555', 'FF 666', 'GG 777']) await scan(page, plate);

      // The refusal is still there once they are recorded, however many, and BAN 1's card turns STOP (its
      // label blocks entry) though it is no longer the newest.
      await expect.poll(() => gateResult(page).innerText(), { timeout: 10_000 }).toMatch(/GG777\s+PENDING/);
      expect(await gateResult(page).innerText()).toContain('DD444 has no open visit on this site.');
      await expect
        .poll(() => resultTexts(page), { timeout: 10_000 })
        .toEqual([
          entryCard('GG 777', 'PENDING'),
          entryCard('FF 666', 'PENDING'),
          entryCard('EE 555', 'PENDING'),
          entryCard('BAN 1', 'STOP'),
          noOpenVisit('DD 444'),
        ]);
      // Still there once all is synced: nothing but the guard's own next action makes it go.
      await expect.poll(() => outboxCount(page), { timeout: 10_000 }).toBe(0);
      expect(await resultTexts(page)).toContainEqual(noOpenVisit('DD444'));
      const heights = await resultCards(page).evaluateAll((cards) =>
        cards.map((card) => card.getBoundingClientRect().height),
      );
      expect(Math.min(...heights.slice(1))).toBeGreaterThan(0);
      expect(heights[0]).toBeGreaterThan(Math.max(...heights.slice(1)));

      // A car the guard scans himself, back at an idle gate he has been looking at: the oldest make room.
      await scan(page, 'HH 888');
      await expect
        .poll(() => resultTexts(page))
        .toEqual([
          entryCard('HH 888', 'PENDING'),
          entryCard('GG 777', 'PENDING'),
          entryCard('FF 666', 'PENDING'),
          entryCard('EE 555', 'PENDING'),
        ]);
      await context.close();
    }, 40_000);

    it('scans still running when the guard opens another tab go on without taking his typing, and he finds their results, refusals too, on his return', async () => {
      const site = await newSite();
      const { context, page } = await openGate(site);
      await slowSearch(context, 2_000);

      // The same car scanned twice while Exit of DD 444 waits: the second scan is refused as already on site,
      // a refusal made on this kiosk alone, which Needs attention never lists.
      await page.keyboard.type('DD 444', { delay: 5 });
      await exitButton(page).click();
      await scan(page, 'EE 555');
      await scan(page, 'EE 555');
      await tab(page, 'Settings');
      const serverUrl = page.getByLabel('Server address');
      await serverUrl.click();
      const typedBefore = await serverUrl.inputValue();
      await expect.poll(() => serverVehicleVisits(site), { timeout: 10_000 }).toEqual(['EE 555 PENDING']);
      await expect.poll(() => outboxCount(page), { timeout: 10_000 }).toBe(0);
      // The gate's actions ended while Settings was open, and took nothing from it: the guard's typing still goes where he put it.
      await page.keyboard.type('/x');
      expect(await page.evaluate(() => document.activeElement?.id)).toBe('setup-server');
      expect(await serverUrl.inputValue()).toBe(`${typedBefore}/x`);

      await tab(page, 'Home');
      await expect.poll(() => gateResult(page).innerText()).toContain('EE555 is already on site (PENDING).');
      await expect
        .poll(() => resultTexts(page))
        .toEqual([
          refusalCard('EE 555', 'EE555 is already on site (PENDING).'),
          entryCard('EE 555', 'PENDING'),
          noOpenVisit('DD 444'),
        ]);
      // The refused plate is still one press from Exit, in the input, which has the scanner's focus again.
      expect(await plateInput(page).inputValue()).toBe('EE 555');
      await expect.poll(() => plateFocused(page)).toBe(true);
      await context.close();
    }, 40_000);

    it('back at the gate while its action still waits: it is still busy, a scan is remembered, and both results come in on screen', async () => {
      const site = await newSite();
      const { context, page } = await openGate(site);
      const searches = await slowSearch(context, 3_000);

      await page.keyboard.type('DD 444', { delay: 5 });
      await exitButton(page).click();
      await tab(page, 'Roll call');
      await page.getByRole('heading', { name: 'Roll call' }).waitFor();
      await tab(page, 'Home');
      await expect.poll(() => plateFocused(page)).toBe(true);
      expect(await exitButton(page).isDisabled()).toBe(true);
      await scan(page, 'EE 555');

      await expect
        .poll(() => resultTexts(page), { timeout: 10_000 })
        .toEqual([entryCard('EE 555', 'PENDING'), noOpenVisit('DD 444')]);
      // At the kiosk's tablet size both are in view without scrolling: the refusal just under the newest card.
      const statusBarTop = (await page.getByRole('status').boundingBox())?.y ?? 0;
      expect(
        await resultCards(page)
          .nth(1)
          .evaluate((card) => card.getBoundingClientRect().bottom),
      ).toBeLessThanOrEqual(statusBarTop);
      await screenshot(page, 'kiosk-gate-results');
      expect(searches.count).toBe(1);
      expect(await plateInput(page).inputValue()).toBe('');
      await context.close();
    }, 40_000);

    it('after a re-pairing to another site the gate starts afresh: no result of the site it left', async () => {
      const site = await newSite();
      const other = await kioskSite(server, 'South gate', 'gate');
      const { context, page } = await openGate(site);
      await scan(page, 'JJ 999');
      await expect.poll(() => resultTexts(page)).toEqual([entryCard('JJ 999', 'PENDING')]);
      await expect.poll(() => outboxCount(page), { timeout: 10_000 }).toBe(0);

      await tab(page, 'Settings');
      await page.getByLabel('Kiosk token').fill(other.kioskToken);
      await page.getByRole('button', { name: 'Find sites' }).click();
      await page.getByRole('radio', { name: 'South gate' }).check();
      await page.getByRole('button', { name: 'Save' }).click();
      await plateInput(page).waitFor();
      await expect.poll(() => gateResult(page).innerText()).toContain('Waiting for a vehicle');
      expect(await resultCards(page).count()).toBe(0);
      await context.close();
    }, 40_000);
  },
);
