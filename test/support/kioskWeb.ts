import fs from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, expect } from 'vitest';
import type { VehicleCheckin } from '../../shared/src/schemas/vehicles';
import { launchChromium } from './browser';
import type { KioskTestSite } from './factories';
import { type KioskWeb, builtKiosk, kioskWebAt } from './kioskBuild';
import { type TestServer, startTestServer } from './testServer';

export { type KioskWeb, builtKiosk, kioskWebAt };
export const screenshotDir = fileURLToPath(new URL('../e2e/screenshots/', import.meta.url));

export interface KioskPageOptions {
  serverUrl: string;
  token: string;
  siteId: number;
  mode: 'visitor' | 'gate';
  /** The Settings PIN (`?pin=`). */
  pin?: string;
  /** More of the address (`idle`, say). */
  query?: Record<string, string>;
  /** Set up before the page loads (routes the kiosk's very first requests must already go through). */
  beforeLoad?: (context: BrowserContext) => Promise<unknown>;
}

/** A fresh browser profile (empty IndexedDB) at the kiosk's tablet size. */
export async function kioskContext(browser: Browser): Promise<BrowserContext> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 }, deviceScaleFactor: 1 });
  // Well under the tests' own limits, so a step that cannot happen fails by name instead of a test timeout.
  context.setDefaultTimeout(10_000);
  return context;
}

/** A fresh browser profile (empty IndexedDB) at tablet size, paired through the query string. */
export async function openKioskPage(
  browser: Browser,
  web: KioskWeb,
  options: KioskPageOptions,
): Promise<{ context: BrowserContext; page: Page }> {
  const context = await kioskContext(browser);
  await options.beforeLoad?.(context);
  const page = await context.newPage();
  const query = new URLSearchParams({
    ...options.query,
    server: options.serverUrl,
    token: options.token,
    site: String(options.siteId),
    mode: options.mode,
  });
  if (options.pin !== undefined) query.set('pin', options.pin);
  await page.goto(`${web.url}?${query}`);
  // Paired first (the tabs are the paired kiosk's; "Starting…" and the setup screen say Online too), so a
  // test that reloads at once finds the pairing saved; then online as the paired kiosk sees it.
  await page.getByRole('button', { name: 'Roll call' }).waitFor({ timeout: 10_000 });
  await page.getByRole('status').getByText('Online').waitFor({ timeout: 10_000 });
  return { context, page };
}

/** Rows in one of the kiosk's IndexedDB stores, read from the database itself (not from what the screen says). */
export function storeCount(page: Page, store: string): Promise<number> {
  return page.evaluate(
    (name) =>
      new Promise<number>((resolve, reject) => {
        const request = indexedDB.open('gatehouse-kiosk');
        request.onerror = () => reject(request.error);
        request.onsuccess = () => {
          const db = request.result;
          const count = db.transaction(name).objectStore(name).count();
          count.onsuccess = () => {
            resolve(count.result);
            db.close();
          };
          count.onerror = () => reject(count.error);
        };
      }),
    store,
  );
}

/** Rows in the kiosk's outbox: actions not yet acknowledged by the server. */
export const outboxCount = (page: Page) => storeCount(page, 'outbox');

export async function screenshot(page: Page, name: string): Promise<void> {
  await fs.mkdir(screenshotDir, { recursive: true });
  // Animations off, so the confirmation's countdown bar and transitions do not blur the picture.
  await page.screenshot({ path: path.join(screenshotDir, `${name}.png`), animations: 'disabled' });
}

/** Fills the default check-in form (first and last name) and submits it. */
export async function checkInThroughForm(page: Page, firstName: string, lastName: string): Promise<void> {
  await page.getByRole('button', { name: 'Check in', exact: true }).click();
  await page.getByLabel('First name', { exact: true }).fill(firstName);
  await page.getByLabel('Last name', { exact: true }).fill(lastName);
  await page.getByRole('button', { name: 'Check in', exact: true }).click();
  await page.getByText(`Welcome, ${firstName}`).waitFor();
}

/** From visitor home: Break or Check out → Find your name → the person → the action → back home. */
export async function personAction(
  page: Page,
  entry: 'Break' | 'Check out',
  name: string,
  action: 'Start break' | 'End break' | 'Check out',
  screenshotName?: string,
): Promise<void> {
  await page.getByRole('button', { name: entry, exact: true }).click();
  await page.getByLabel('Find your name').fill(name.split(' ')[0] ?? name);
  await page.getByRole('button', { name: new RegExp(`^${name}`) }).click();
  if (screenshotName) await screenshot(page, screenshotName);
  await page.getByRole('button', { name: action, exact: true }).click();
  await page.getByRole('button', { name: 'Done' }).click();
}

/**
 * The API server (serving the kiosk's production build at /kiosk/, as `npm start` does) and Chromium of one
 * test file's browser tests: started before its tests (handed to `onStarted`), closed after them, with any
 * server error printed first (the tests' log level is silent, so a server-side error behind a failed step
 * would otherwise be invisible).
 */
export function kioskBrowserHooks(
  onStarted: (started: { server: TestServer; browser: Browser; web: KioskWeb }) => void,
): void {
  let started: { server: TestServer; browser: Browser; web: KioskWeb } | undefined;
  beforeAll(async () => {
    const [server, browser] = await Promise.all([
      startTestServer({ RATE_LIMIT_PER_MINUTE: '1000000' }),
      launchChromium(),
      builtKiosk(),
    ]);
    started = { server, browser, web: kioskWebAt(server) };
    onStarted(started);
    // A build can take a minute on a busy machine (other test files wait for the same one).
  }, 180_000);
  afterAll(async () => {
    for (const line of started?.server.logs ?? [])
      if (line.level === 'error') console.error('server error:', line.message, JSON.stringify(line.fields));
    await started?.browser.close();
    await started?.server.close();
  });
}

/** The gate page of a fresh profile, with the plate input focused as a scanner needs it. */
export async function openGatePage(
  started: { server: TestServer; browser: Browser; web: KioskWeb },
  site: KioskTestSite,
  beforeLoad?: KioskPageOptions['beforeLoad'],
): Promise<{ context: BrowserContext; page: Page }> {
  const { server, browser, web } = started;
  const opened = await openKioskPage(browser, web, {
    serverUrl: server.baseUrl,
    token: site.kioskToken,
    siteId: site.siteId,
    mode: 'gate',
    beforeLoad,
  });
  await expect.poll(() => plateFocused(opened.page)).toBe(true);
  return opened;
}

export const plateInput = (page: Page) => page.getByLabel('License plate');
/** Whether the plate input has the focus, so a scanner's typing lands in it. */
export const plateFocused = (page: Page) => plateInput(page).evaluate((input) => input === document.activeElement);
export const exitButton = (page: Page) => page.getByRole('button', { name: 'Exit', exact: true });
/** The gate's result area: its recent results, and a notice when nothing was done. */
export const gateResult = (page: Page) => page.getByLabel('Result');
/** The gate's result cards, newest first. */
export const resultCards = (page: Page) => gateResult(page).getByRole('listitem');
/** The texts of the gate's result cards, newest first, as the guard reads them. */
export const resultTexts = (page: Page) => resultCards(page).allInnerTexts();
/** The newest result card, the one shown largest. */
export const newestResult = (page: Page) => resultCards(page).first();
/** The plates in the gate's "On site now" list, sorted. */
export const onSiteList = async (page: Page) =>
  (await page.locator('.vehicle-list .vehicle-plate').allInnerTexts()).sort();

/** The plates of the site's vehicle visits on the server, with their status, sorted. */
export const serverVehicleVisits = async (site: KioskTestSite) =>
  (
    await site.api.post<{ data: VehicleCheckin[] }>('/v1/checkins/vehicles/search', { siteIds: [site.siteId] })
  ).body.data
    .map((visit) => `${visit.licensePlate} ${visit.status}`)
    .sort();

/** A keyboard-wedge scan: the plate typed into whatever has focus, then Enter. */
export async function scan(page: Page, plate: string): Promise<void> {
  await page.keyboard.type(plate, { delay: 5 });
  await page.keyboard.press('Enter');
}

/** Exit's plate search answers only after `ms`, so the action stays busy while the guard scans on; counts the searches. */
export async function slowSearch(context: BrowserContext, ms: number): Promise<{ count: number }> {
  const searches = { count: 0 };
  await context.route('**/v1/checkins/vehicles/search', async (route) => {
    searches.count += 1;
    await new Promise((resolve) => setTimeout(resolve, ms));
    await route.continue();
  });
  return searches;
}
