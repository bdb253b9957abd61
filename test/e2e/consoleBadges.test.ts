import type { Browser, BrowserContext, Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import type { PersonCheckin } from '../../shared/src/schemas/personCheckins';
import type { Site } from '../../shared/src/schemas/sites';
import { browserAvailable } from '../support/browser';
import {
  DESK,
  PHONE,
  consoleBrowserHooks,
  consolePage,
  consoleScreenshot,
  noSidewaysScroll,
  signIn,
  rowNamed,
  sitesPageAsManager,
} from '../support/consoleWeb';
import { type World, buildWorld, visitor } from '../support/factories';
import { readPdf } from '../support/pdfReadback';
import { buildStaffUser } from '../support/staff';
import type { TestServer } from '../support/testServer';

/**
 * Counts the print dialogs the page opens instead of opening them: headless Chromium has none (printing a
 * PDF frame there crashes the page a moment later). In every frame, so the badge frame's print() is counted.
 */
const countPrints = (context: BrowserContext) =>
  context.addInitScript(() => {
    window.print = () => {
      const top: (Window & { badgePrints?: number }) | null = window.top;
      if (top) top.badgePrints = (top.badgePrints ?? 0) + 1;
    };
  });
const printCount = (page: Page) => page.evaluate(() => (window as Window & { badgePrints?: number }).badgePrints ?? 0);

describe.skipIf(!browserAvailable())('badges in the console', () => {
  let server: TestServer;
  let browser: Browser;
  let world: World;

  consoleBrowserHooks((started) => ({ server, browser } = started));
  beforeAll(async () => {
    world = await buildWorld(server);
  });

  it('a manager turns badges on for a site and picks its label on the Sites page', async () => {
    const { page, siteName, row } = await sitesPageAsManager(server, browser, world);
    await row.getByRole('cell', { name: 'Off' }).waitFor();
    await row.getByRole('button', { name: 'Badges' }).click();
    const dialog = page.getByRole('dialog', { name: `Badges of ${siteName}` });
    await dialog.getByRole('checkbox', { name: 'Print visitor badges' }).check();
    await dialog.getByLabel('Badge size').selectOption({ label: 'DYMO 99014 (54 × 101 mm)' });
    await consoleScreenshot(page, 'console-site-badges-desk');
    await page.setViewportSize(PHONE);
    expect(await noSidewaysScroll(page)).toBe(true);
    await page.setViewportSize(DESK);
    await dialog.getByRole('button', { name: 'Save' }).click();
    await row.getByRole('cell', { name: 'On · DYMO 99014 (54 × 101 mm)' }).waitFor();
    expect((await world.api.get<Site>(`/v1/sites/${world.siteId}`)).body.badge).toEqual({
      enabled: true,
      size: '54x101',
    });
    await page.setViewportSize(PHONE);
    expect(await noSidewaysScroll(page)).toBe(true);
  });

  it('reception prints the badge of a visitor on site, not of one waiting for approval', async () => {
    await world.api.patch(`/v1/sites/${world.siteId}`, { badge: { enabled: true, size: '62x100' } });
    const people = `/v1/sites/${world.siteId}/checkins/people`;
    const inside = (await world.api.post<PersonCheckin>(people, visitor('王', '小明'))).body;
    expect(inside.status).toBe('IN');
    const config = (await world.api.get<{ fields: unknown[] }>(`${people}/config`)).body;
    await world.api.put(`${people}/config`, { requiresApproval: true, fields: config.fields });
    expect((await world.api.post<PersonCheckin>(people, visitor('Penny', 'Waits'))).body.status).toBe('PENDING');

    const reception = await buildStaffUser(server, {
      accountId: world.accountId,
      role: 'reception',
      siteIds: [world.siteId],
    });
    const { context, page } = await consolePage(browser);
    await countPrints(context);
    const badges: Buffer[] = [];
    page.on('response', (response) => {
      if (response.url().endsWith('/badge.pdf') && response.ok())
        void response.body().then((body) => badges.push(body));
    });
    await signIn(page, server.baseUrl, reception.email, reception.password);
    await page.getByRole('heading', { name: 'On site now' }).waitFor();
    const waiting = rowNamed(page, 'Penny Waits');
    await waiting.waitFor();
    expect(await waiting.getByRole('button', { name: 'Print badge' }).count()).toBe(0);
    await rowNamed(page, '王 小明').getByRole('button', { name: 'Print badge' }).click();
    await expect.poll(() => printCount(page), { timeout: 10_000 }).toBe(1);
    await expect.poll(() => badges.length).toBe(1);
    const pdf = readPdf(badges[0] ?? Buffer.alloc(0));
    expect(pdf.text).toContain('王 小明');
    expect(Math.round(pdf.pageMm.width)).toBe(62);
    await consoleScreenshot(page, 'console-print-badge');
  });
});
