import type { Browser, BrowserContext, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import type { PersonCheckin } from '../../shared/src/schemas/personCheckins';
import { defaultCheckinConfig } from '../../shared/src/schemas/sites';
import { browserAvailable } from '../support/browser';
import { putCheckinConfig } from '../support/checkinConfig';
import { type KioskTestSite, kioskSite } from '../support/factories';
import {
  checkInThroughForm,
  kioskBrowserHooks,
  type KioskWeb,
  openKioskPage,
  outboxCount,
  screenshot,
  storeCount,
} from '../support/kioskWeb';
import { readPdf } from '../support/pdfReadback';
import type { TestServer } from '../support/testServer';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The site's person check-ins on the server, newest first. */
const serverVisits = async (site: KioskTestSite) =>
  (await site.api.get<{ data: PersonCheckin[] }>(`/v1/sites/${site.siteId}/checkins/people`)).body.data;

/** Every badge the page asked the server for: what it answered, and the PDF when it gave one. */
function badgeRequests(context: BrowserContext): Array<{ status: number; pdf?: Buffer }> {
  const seen: Array<{ status: number; pdf?: Buffer }> = [];
  context.on('response', (response) => {
    if (!response.url().endsWith('/badge.pdf')) return;
    const answer: { status: number; pdf?: Buffer } = { status: response.status() };
    seen.push(answer);
    if (response.ok()) void response.body().then((body) => (answer.pdf = body));
  });
  return seen;
}

/**
 * Counts the print dialogs the page opens instead of opening them: headless Chromium has no print dialog
 * (printing a PDF frame there crashes the page a moment later; a headed one shows its print preview).
 * In every frame, so the badge frame's own print() is the one counted.
 */
const countPrints = (context: BrowserContext) =>
  context.addInitScript(() => {
    window.print = () => {
      const top: (Window & { badgePrints?: number }) | null = window.top;
      if (top) top.badgePrints = (top.badgePrints ?? 0) + 1;
    };
  });
const printCount = (page: Page) => page.evaluate(() => (window as Window & { badgePrints?: number }).badgePrints ?? 0);

/** The print frames: titled "Visitor badge", each loaded from the kiosk's blob of the badge PDF. */
const printFrames = async (page: Page) => {
  const sources = await page
    .locator('iframe[title="Visitor badge"]')
    .evaluateAll((frames) => frames.map((frame) => (frame as HTMLIFrameElement).src));
  const loaded = page.frames().map((frame) => frame.url());
  return sources.filter((source) => source.startsWith('blob:') && loaded.includes(source)).length;
};

/** The QR text of a visit's badge, as the server prints it (read back from the PDF's rendered page). */
async function badgeQr(site: KioskTestSite, checkin: PersonCheckin, token: string): Promise<string> {
  const response = await fetch(
    `${started().server.baseUrl}/v1/sites/${site.siteId}/checkins/people/${checkin.checkinId}/badge.pdf`,
    {
      headers: { Authorization: `Bearer ${token}` },
    },
  );
  expect(response.status).toBe(200);
  const qr = readPdf(Buffer.from(await response.arrayBuffer())).qr;
  expect(qr).toMatch(/^gatehouse:\/\/checkout\?/);
  return qr ?? '';
}

/** The visitor home again: the confirmation goes by itself within 5 seconds. */
const backHome = (page: Page) => page.getByRole('button', { name: 'Check out', exact: true }).waitFor();

/** A keyboard-wedge scanner: the code typed into the focused field, then Enter. */
async function scanBadge(page: Page, text: string): Promise<void> {
  await page.getByRole('button', { name: 'Check out', exact: true }).click();
  await expect
    .poll(() => page.getByLabel('Find your name').evaluate((input) => input === document.activeElement))
    .toBe(true);
  await page.keyboard.type(text, { delay: 2 });
  await page.keyboard.press('Enter');
}

const harness: { server?: TestServer; browser?: Browser; web?: KioskWeb } = {};
/** The file's server, browser and kiosk build, once its hooks have started them. */
function started() {
  const { server, browser, web } = harness;
  if (!server || !browser || !web) throw new Error('read inside a test, after the hooks started everything');
  return { server, browser, web };
}

describe.skipIf(!browserAvailable())('badges at a kiosk in a real browser', () => {
  kioskBrowserHooks((started) => Object.assign(harness, started));

  const open = (site: KioskTestSite) =>
    openKioskPage(started().browser, started().web, {
      serverUrl: started().server.baseUrl,
      token: site.kioskToken,
      siteId: site.siteId,
      mode: 'visitor',
      beforeLoad: countPrints,
    });
  const newSite = async () => {
    const site = await kioskSite(started().server, 'Lobby');
    expect((await site.api.patch(`/v1/sites/${site.siteId}`, { badge: { enabled: true } })).status).toBe(200);
    return site;
  };

  it('prints the badge of a visitor the server admits, and its QR code checks the visit out at the kiosk, offline too', async () => {
    const site = await newSite();
    const { context, page } = await open(site);
    const requests = badgeRequests(context);
    await checkInThroughForm(page, 'Ada', 'Lovelace');
    // The badge goes to the browser's print dialog, from a frame holding the PDF the server made.
    await expect.poll(() => printCount(page), { timeout: 10_000 }).toBe(1);
    expect(await printFrames(page)).toBe(1);
    await expect.poll(() => requests[0]?.pdf).toBeDefined();
    expect(requests.map((request) => request.status)).toEqual([200]);
    const badge = readPdf(requests[0]?.pdf ?? Buffer.alloc(0));
    expect(badge.text).toContain('Ada Lovelace');
    const [ada] = await serverVisits(site);
    expect(ada?.status).toBe('IN');
    expect(badge.qr).toBe(await badgeQr(site, ada as PersonCheckin, site.kioskToken));

    // Scanned on the Check out screen: checked out at once, with no name typed.
    await backHome(page);
    await scanBadge(page, badge.qr ?? '');
    await page.getByText('Goodbye, Ada').waitFor();
    await screenshot(page, 'kiosk-badge-checkout');
    await expect.poll(async () => (await serverVisits(site))[0]?.status, { timeout: 10_000 }).toBe('OUT');
    expect((await serverVisits(site))[0]?.exit?.source).toBe('KIOSK');

    // Offline, the kiosk finds the visit in its own data; the checkout waits in the outbox like any other.
    await backHome(page);
    await checkInThroughForm(page, 'Grace', 'Hopper');
    await expect.poll(() => printCount(page), { timeout: 10_000 }).toBe(2);
    const grace = (await serverVisits(site))[0] as PersonCheckin;
    expect(grace.person.firstName).toBe('Grace');
    const graceQr = await badgeQr(site, grace, site.kioskToken);
    await backHome(page);
    await context.setOffline(true);
    await expect.poll(() => page.getByRole('status').textContent()).toContain('Offline');
    await scanBadge(page, graceQr);
    await page.getByText('Goodbye, Grace').waitFor();
    expect(await outboxCount(page)).toBe(1);
    expect((await serverVisits(site))[0]?.status).toBe('IN');
    await context.setOffline(false);
    await expect.poll(async () => (await serverVisits(site))[0]?.status, { timeout: 15_000 }).toBe('OUT');
    await context.close();
  });

  it("checks out nobody with another site's badge or a guessed code, and says so", async () => {
    const site = await newSite();
    const elsewhere = await newSite();
    const { context, page } = await open(site);
    await checkInThroughForm(page, 'Ada', 'Lovelace');
    await expect.poll(async () => (await serverVisits(site))[0]?.status).toBe('IN');
    await expect.poll(() => outboxCount(page)).toBe(0);
    const ada = (await serverVisits(site))[0] as PersonCheckin;
    const qr = await badgeQr(site, ada, site.kioskToken);
    // The confirmation has gone home by itself meanwhile.
    await page.getByRole('button', { name: 'Check out', exact: true }).waitFor();

    const visitor = (
      await elsewhere.api.post<PersonCheckin>(`/v1/sites/${elsewhere.siteId}/checkins/people`, {
        person: { firstName: 'Otto', lastName: 'Other' },
      })
    ).body;
    await scanBadge(page, await badgeQr(elsewhere, visitor, elsewhere.kioskToken));
    await page.getByRole('alert').getByText('This badge is for another site').waitFor();

    const guessed = qr.replace(/code=[^&]+/, 'code=AAAAAAAAAAAAAAAA');
    await page.keyboard.type(guessed, { delay: 2 });
    await page.keyboard.press('Enter');
    await page.getByRole('alert').getByText('This badge does not belong to anyone on site now').waitFor();
    await sleep(500);
    expect(await outboxCount(page)).toBe(0);
    expect((await serverVisits(site))[0]?.status).toBe('IN');
    await context.close();
  });

  it('prints nothing for a STOP visitor, nor for a PENDING one (approved later, its badge is the console’s)', async () => {
    const site = await newSite();
    expect(
      (await site.api.post('/v1/watchlist/people', { firstName: 'Mallory', lastName: 'Mole', reason: 'Laptop' }))
        .status,
    ).toBe(201);
    const { context, page } = await open(site);
    const requests = badgeRequests(context);
    await expect.poll(() => storeCount(page, 'watchlistDigests'), { timeout: 10_000 }).toBe(1);
    await page.getByRole('button', { name: 'Check in', exact: true }).click();
    await page.getByLabel('First name', { exact: true }).fill('Mallory');
    await page.getByLabel('Last name', { exact: true }).fill('Mole');
    await page.getByRole('button', { name: 'Check in', exact: true }).click();
    await page.getByText('Please see reception').first().waitFor();
    await expect.poll(async () => (await serverVisits(site))[0]?.status).toBe('STOP');
    await expect.poll(() => outboxCount(page)).toBe(0);

    await putCheckinConfig(site, defaultCheckinConfig.fields, true);
    await page.getByRole('button', { name: 'Check in', exact: true }).waitFor();
    // The kiosk's cached form is up to 5 minutes old: it learns of approval from the server's answer.
    await checkInThroughForm(page, 'Penny', 'Waits');
    await expect.poll(async () => (await serverVisits(site))[0]?.status).toBe('PENDING');
    await expect.poll(() => outboxCount(page)).toBe(0);
    const penny = (await serverVisits(site))[0] as PersonCheckin;
    expect(
      (await site.api.post(`/v1/sites/${site.siteId}/checkins/people/${penny.checkinId}/approve`, {})).status,
    ).toBe(200);
    await sleep(3_000);
    expect(requests).toEqual([]);
    expect(await printCount(page)).toBe(0);
    expect(await page.locator('iframe[title="Visitor badge"]').count()).toBe(0);
    await context.close();
  });
});
