import fs from 'node:fs/promises';
import path from 'node:path';
import type { APIResponse, Browser, BrowserContext, Locator, Page, Request } from 'playwright-core';
import type { Site } from '../../shared/src/schemas/sites';
import { afterAll, beforeAll } from 'vitest';
import { launchChromium } from './browser';
import { builtConsole } from './consoleBuild';
import { screenshotDir } from './kioskWeb';
import { type NetworkFollower, followNetwork, isEventStream } from './networkQuiet';
import type { World } from './factories';
import { buildStaffUser } from './staff';
import { createLink, linkUrl } from '../../server/src/commands/staffLinks';
import { type TestServer, startTestServer } from './testServer';

export const DESK = { width: 1280, height: 800 };
export const PHONE = { width: 390, height: 844 };

/**
 * The API server (serving the built console) and Chromium for one test file's console tests, closed after
 * them, with any server error printed first (the tests' log level is silent).
 */
export function consoleBrowserHooks(
  onStarted: (started: { server: TestServer; browser: Browser }) => void,
  env: Record<string, string> = {},
): void {
  let started: { server: TestServer; browser: Browser } | undefined;
  beforeAll(async () => {
    await builtConsole();
    const [server, browser] = await Promise.all([
      startTestServer({ RATE_LIMIT_PER_MINUTE: '1000000', SIGNIN_FAILURES_PER_ADDRESS: '1000', ...env }),
      launchChromium(),
    ]);
    started = { server, browser };
    onStarted(started);
  }, 180_000);
  afterAll(async () => {
    for (const line of started?.server.logs ?? [])
      if (line.level === 'error') console.error('server error:', line.message, JSON.stringify(line.fields));
    await started?.browser.close();
    await started?.server.close();
  });
}

/** A fresh browser profile (no cookie) with a page at the given size. */
export async function consolePage(browser: Browser, viewport = DESK): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({ viewport });
  const page = await context.newPage();
  // A script error would otherwise show only as a locator timing out.
  page.on('pageerror', (error) => console.error('console page error:', error.message));
  return { context, page };
}

export async function signIn(page: Page, baseUrl: string, email: string, password: string): Promise<void> {
  await page.goto(`${baseUrl}/console`);
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('button', { name: 'Sign out' }).waitFor();
}

/** A console page signed in with its event stream open, every request it made from the start, and a follower of them. */
export interface FollowingConsole {
  context: BrowserContext;
  page: Page;
  requests: Request[];
  network: NetworkFollower;
}

/**
 * `member` signed in on a fresh console page, once its event stream has answered 200. With `clock`, the page's
 * clock is installed first, so a test can run the fallback poll's timers forward.
 */
export async function signInFollowing(
  browser: Browser,
  baseUrl: string,
  member: { email: string; password: string },
  options: { clock?: boolean } = {},
): Promise<FollowingConsole> {
  const { context, page } = await consolePage(browser);
  if (options.clock) await page.clock.install();
  const requests: Request[] = [];
  page.on('request', (request) => requests.push(request));
  const network = followNetwork(page);
  const streamOpened = page.waitForResponse(
    (response) => isEventStream(response.request()) && response.status() === 200,
  );
  await signIn(page, baseUrl, member.email, member.password);
  await streamOpened;
  return { context, page, requests, network };
}

/** Opens a console page by its link in the navigation. */
export const openPage = (page: Page, name: string) =>
  page.getByRole('navigation').getByRole('link', { name, exact: true }).click();

/** A table's row by its row header, exactly (a site's or a kiosk's name). */
export const rowNamed = (page: Page, name: string) =>
  page.getByRole('row').filter({ has: page.getByRole('rowheader', { name, exact: true }) });

/** A manager of one site, signed in and on the Sites page: the page, the site's name and its row. */
export async function sitesPageAsManager(
  server: TestServer,
  browser: Browser,
  site: Pick<World, 'accountId' | 'siteId' | 'api'>,
): Promise<{ page: Page; siteName: string; row: Locator }> {
  const manager = await buildStaffUser(server, { accountId: site.accountId, role: 'manager', siteIds: [site.siteId] });
  const siteName = (await site.api.get<Site>(`/v1/sites/${site.siteId}`)).body.name;
  const { page } = await consolePage(browser);
  await signIn(page, server.baseUrl, manager.email, manager.password);
  await openPage(page, 'Sites');
  return { page, siteName, row: rowNamed(page, siteName) };
}

/**
 * The API with the page's session cookie, as the console itself calls it (same origin): for what the
 * console has no page for yet, and to check what the cookie can reach.
 */
export function cookieApi(page: Page, baseUrl: string) {
  const headers = { Origin: baseUrl };
  const json = async <T>(response: APIResponse) => ({
    status: response.status(),
    body: (await response.json().catch(() => null)) as T,
  });
  return {
    get: async <T = unknown>(urlPath: string) => json<T>(await page.request.get(`${baseUrl}${urlPath}`)),
    post: async <T = unknown>(urlPath: string, data: unknown) =>
      json<T>(await page.request.post(`${baseUrl}${urlPath}`, { data, headers })),
  };
}

/** True when nothing on the page is wider than the window (no horizontal scrolling). */
export const noSidewaysScroll = (page: Page) =>
  page.evaluate(() => (document.scrollingElement ?? document.documentElement).scrollWidth <= window.innerWidth);

/** True when nothing on the page is wider than the window (no horizontal scrolling). */
export const fitsWidth = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth);

export async function consoleScreenshot(page: Page, name: string): Promise<void> {
  await fs.mkdir(screenshotDir, { recursive: true });
  await page.screenshot({ path: path.join(screenshotDir, `${name}.png`), fullPage: true, animations: 'disabled' });
}

/** A fresh one-time setup link for the account's first owner, as `npm start` prints it. */
export async function setupLinkFor(server: TestServer, accountId: number): Promise<string> {
  const code = await createLink(server.database, { accountId, kind: 'setup', userId: null, now: new Date() });
  return linkUrl(server.baseUrl, 'setup', code);
}
