import type { Browser, BrowserContext, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import type { PersonCheckin } from '../../shared/src/schemas/personCheckins';
import { defaultCheckinConfig } from '../../shared/src/schemas/sites';
import { browserAvailable } from '../support/browser';
import { putCheckinConfig } from '../support/checkinConfig';
import { type KioskTestSite, kioskSite, visitor } from '../support/factories';
import {
  checkInThroughForm,
  kioskBrowserHooks,
  type KioskWeb,
  openKioskPage,
  outboxCount,
  personAction,
  screenshot,
  storeCount,
} from '../support/kioskWeb';
import type { TestServer } from '../support/testServer';

// The Roll call counts who is on site as the console does (IN, ON_BREAK, PENDING), never a refused watchlist
// attempt, someone who left, or a check-in the server refused; the Check out search lists only those who may
// leave, never a refused visitor's name, not even while the refusal is only the kiosk's prediction.

describe.skipIf(!browserAvailable())(
  'kiosk in a real browser: the Roll call and the Check out search tell the truth',
  () => {
    let server: TestServer;
    let browser: Browser;
    let web: KioskWeb;

    kioskBrowserHooks((started) => ({ server, browser, web } = started));

    const open = (site: KioskTestSite) =>
      openKioskPage(browser, web, {
        serverUrl: server.baseUrl,
        token: site.kioskToken,
        siteId: site.siteId,
        mode: 'visitor',
      });
    const statusBar = (page: Page) => page.getByRole('status');
    const watchlist = async (site: KioskTestSite, body: Record<string, string>) =>
      expect((await site.api.post('/v1/watchlist/people', body)).status).toBe(201);
    /** What the console counts for the site: its people IN, ON_BREAK or PENDING, as the server has them. */
    const serverOnSite = async (site: KioskTestSite) =>
      (
        await site.api.get<{ data: PersonCheckin[] }>(
          `/v1/sites/${site.siteId}/checkins/people?status=IN,ON_BREAK,PENDING&limit=200`,
        )
      ).body.data.length;
    const allSynced = async (page: Page) => {
      await expect.poll(() => outboxCount(page), { timeout: 15_000 }).toBe(0);
      await expect.poll(() => statusBar(page).textContent(), { timeout: 15_000 }).toMatch(/Online.*All synced/);
    };
    const goOffline = async (context: BrowserContext, page: Page) => {
      await context.setOffline(true);
      await expect.poll(() => statusBar(page).textContent()).toContain('Offline');
    };
    const tryCheckIn = async (page: Page, firstName: string, lastName: string, email?: string) => {
      await page.getByRole('button', { name: 'Check in', exact: true }).click();
      await page.getByLabel('First name', { exact: true }).fill(firstName);
      await page.getByLabel('Last name', { exact: true }).fill(lastName);
      if (email) await page.getByLabel('Email').fill(email);
      await page.getByRole('button', { name: 'Check in', exact: true }).click();
    };
    const seeReception = async (page: Page) => {
      await page.getByRole('heading', { name: 'Please see reception' }).waitFor();
      await page.getByRole('button', { name: 'Done' }).click();
    };
    const openRollCall = async (page: Page) => {
      await page.getByRole('button', { name: 'Roll call' }).click();
      await page.getByRole('heading', { name: 'Roll call', exact: true }).waitFor();
    };
    const rowNames = (page: Page, table: string) =>
      page.getByRole('table', { name: table }).getByRole('rowheader').allInnerTexts();

    it('counts IN, ON_BREAK and PENDING (waiting shown apart) as the server does: not refused watchlist attempts, who left, or a refused check-in', async () => {
      const site = await kioskSite(server, 'Lobby');
      await watchlist(site, { firstName: 'Mallory', lastName: 'Mole' });
      await watchlist(site, { email: 'eve@example.com' });
      const { context, page } = await open(site);
      await expect.poll(() => storeCount(page, 'watchlistDigests'), { timeout: 10_000 }).toBe(1);

      await checkInThroughForm(page, 'Ada', 'Lovelace');
      await page.getByRole('button', { name: 'Done' }).click();
      await checkInThroughForm(page, 'Bob', 'Babbage');
      await page.getByRole('button', { name: 'Done' }).click();
      await personAction(page, 'Break', 'Bob Babbage', 'Start break');
      await checkInThroughForm(page, 'Dan', 'Gone');
      await page.getByRole('button', { name: 'Done' }).click();
      await personAction(page, 'Check out', 'Dan Gone', 'Check out');
      // Two refused watchlist attempts, and Mallory trying again.
      await tryCheckIn(page, 'Mallory', 'Mole');
      await seeReception(page);
      await tryCheckIn(page, 'Eve', 'Sly', 'EVE@example.com');
      await seeReception(page);
      await tryCheckIn(page, 'Mallory', 'Mole');
      await seeReception(page);
      // Waiting for approval: checked in by reception at a site that now asks for it; the kiosk pulls her.
      await putCheckinConfig(site, defaultCheckinConfig.fields, true);
      const carol = await site.api.post<PersonCheckin>(
        `/v1/sites/${site.siteId}/checkins/people`,
        visitor('Carol', 'Clerk'),
      );
      expect(carol.body.status).toBe('PENDING');
      // A check-in the server refuses: made offline while the site is archived for a moment.
      await goOffline(context, page);
      await checkInThroughForm(page, 'Rosa', 'Parks');
      await page.getByRole('button', { name: 'Done' }).click();
      expect((await site.api.patch(`/v1/sites/${site.siteId}`, { archived: true })).status).toBe(200);
      await context.setOffline(false);
      await expect.poll(() => statusBar(page).textContent(), { timeout: 15_000 }).toContain('1 needs attention');
      expect((await site.api.patch(`/v1/sites/${site.siteId}`, { archived: false })).status).toBe(200);

      await openRollCall(page);
      const count = page.locator('.screen-count');
      await expect.poll(() => count.innerText(), { timeout: 40_000 }).toBe('3 people on site, 1 of them waiting');
      expect(await serverOnSite(site)).toBe(3);
      expect(await rowNames(page, 'On site')).toEqual(['Babbage, Bob', 'Lovelace, Ada']);
      expect(await rowNames(page, 'Waiting for approval 1')).toEqual(['Clerk, Carol']);
      expect(await rowNames(page, 'Not counted: check-ins the server refused 1')).toEqual(['Parks, Rosa']);
      const text = await page.locator('main').innerText();
      for (const absent of ['Mole', 'Sly', 'Gone']) expect(text).not.toContain(absent);
      await screenshot(page, 'kiosk-roll-call-counts');

      // Discarded, Rosa's check-in is gone from the Roll call too; the count stays the server's.
      await page.getByRole('button', { name: 'Needs attention' }).click();
      await page.getByRole('button', { name: 'Discard' }).click();
      await page.getByRole('button', { name: 'Yes, discard' }).click();
      await expect.poll(() => outboxCount(page)).toBe(0);
      await openRollCall(page);
      await expect.poll(() => count.innerText()).toBe('3 people on site, 1 of them waiting');
      expect(await page.getByRole('table', { name: /Not counted/ }).count()).toBe(0);
      expect(await page.locator('main').innerText()).not.toContain('Parks');
      expect(await serverOnSite(site)).toBe(3);
      await context.close();
    }, 90_000);

    it('the Check out search lists only those who may leave: never a STOP, also while the STOP is only predicted offline, nor one waiting', async () => {
      const site = await kioskSite(server, 'Lobby');
      await watchlist(site, { firstName: 'Mallory', lastName: 'Banned' });
      await site.api.post(`/v1/sites/${site.siteId}/checkins/people`, visitor('Mary', 'Seacole'));
      const { context, page } = await open(site);
      await expect.poll(() => storeCount(page, 'watchlistDigests'), { timeout: 10_000 }).toBe(1);
      // Every text the screen shows from now on, so a name listed for a moment is caught too.
      await page.evaluate(() => {
        const seen: string[] = [];
        Object.assign(window, { screenTexts: seen });
        new MutationObserver(() => seen.push(document.querySelector('main')?.textContent ?? '')).observe(
          document.body,
          {
            childList: true,
            subtree: true,
            characterData: true,
          },
        );
      });
      const search = page.getByLabel('Find your name');
      const listed = () => page.getByRole('list', { name: 'Matching people' }).getByRole('button').allInnerTexts();
      const nobodyFor = async (typed: string) => {
        await search.fill(typed);
        await page.getByText(`Nobody on site matches “${typed}”`).waitFor();
      };
      const onlyMary = async () => {
        await search.fill('M');
        await expect.poll(listed).toEqual([expect.stringContaining('Mary Seacole')]);
      };

      // Offline, the kiosk predicts Mallory's STOP before the server has said a word.
      await goOffline(context, page);
      await tryCheckIn(page, 'Mallory', 'Banned');
      await seeReception(page);
      expect(await outboxCount(page)).toBe(1);
      await page.getByRole('button', { name: 'Check out', exact: true }).click();
      await nobodyFor('Mal');
      await nobodyFor('Ban');
      await onlyMary();
      await screenshot(page, 'kiosk-check-out-search-no-stop');

      // The server decides STOP too: still never listed. One waiting for approval is not listed either.
      await page.getByRole('button', { name: 'Back' }).click();
      await putCheckinConfig(site, defaultCheckinConfig.fields, true);
      await site.api.post(`/v1/sites/${site.siteId}/checkins/people`, visitor('Mark', 'Waiting'));
      await context.setOffline(false);
      await allSynced(page);
      await openRollCall(page);
      await page.getByRole('row', { name: /Waiting, Mark/ }).waitFor({ timeout: 40_000 });
      await page.getByRole('button', { name: 'Home' }).click();
      await page.getByRole('button', { name: 'Check out', exact: true }).click();
      await onlyMary();
      await nobodyFor('Mal');
      await nobodyFor('Wai');
      const texts = await page.evaluate(() => (window as unknown as { screenTexts: string[] }).screenTexts);
      expect(texts.length).toBeGreaterThan(0);
      for (const text of texts) {
        expect(text).not.toContain('Mallory');
        expect(text).not.toContain('Banned');
      }
      await context.close();
    }, 90_000);
  },
);
