import type { Browser, Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import type { PersonCheckin } from '../../shared/src/schemas/personCheckins';
import type { Site } from '../../shared/src/schemas/sites';
import { browserAvailable } from '../support/browser';
import { PHONE, consoleBrowserHooks, noSidewaysScroll } from '../support/consoleWeb';
import { type World, buildWorld, visitor } from '../support/factories';
import type { TestServer } from '../support/testServer';
import { builtVisitPage } from '../support/visitBuild';
import { phone } from '../support/visitPhone';

// The visitor's phone when things go wrong (docs/running-a-site.md, The visitor's phone): a lost
// connection, a refusal by staff, the address's hourly limit. At 360 px, the narrowest phone we serve.
const NARROW = { width: 360, height: 640 };
const LIMIT = 5;

describe.skipIf(!browserAvailable())('the visitor’s phone when things go wrong', () => {
  let server: TestServer;
  let browser: Browser;
  let world: World;

  beforeAll(async () => {
    await builtVisitPage();
  }, 180_000);
  consoleBrowserHooks((started) => ({ server, browser } = started), { VISIT_CHECKINS_PER_HOUR: String(LIMIT) });
  beforeAll(async () => {
    world = await buildWorld(server);
  });

  const codeOf = async (siteId: number) => (await world.api.get<Site>(`/v1/sites/${siteId}`)).body.visit.code;

  const phonePage = async (viewport = NARROW) => {
    const context = await browser.newContext({ viewport, isMobile: true, hasTouch: true });
    const page = await context.newPage();
    page.on('pageerror', (error) => console.error('visit page error:', error.message));
    return page;
  };

  const fillName = async (page: Page, first: string, last: string) => {
    await page.getByLabel('First name').fill(first);
    await page.getByLabel('Last name').fill(last);
  };

  const visitsNamed = async (lastName: string) =>
    (await world.api.get<{ data: PersonCheckin[] }>(`/v1/sites/${world.siteId}/checkins/people`)).body.data.filter(
      (item) => item.person.lastName === lastName,
    );

  it('says it has no connection, keeps what was typed, and checks in once when the answer was lost', async () => {
    const code = await codeOf(world.siteId);
    const page = await phonePage();
    // The server cannot be reached when the page asks for the form: the page says so and tries again.
    let siteAsked = 0;
    await page.route(`**/v1/visit/${code}`, async (route) => (siteAsked++ === 0 ? route.abort() : route.continue()));
    await page.goto(`${server.baseUrl}/visit/${code}`);
    await page.getByRole('status').filter({ hasText: 'No connection to the server. Trying again…' }).waitFor();
    await page.getByRole('button', { name: 'Check in' }).waitFor({ timeout: 15_000 });
    await fillName(page, 'Lin', 'Lost');
    // The check-in reaches the server, but its answer never reaches the phone.
    let sent = 0;
    await page.route(`**/v1/visit/${code}/checkins`, async (route) => {
      sent++;
      if (sent > 1) return route.continue();
      await route.fetch();
      return route.abort('internetdisconnected');
    });
    await page.getByRole('button', { name: 'Check in' }).click();
    await page.getByRole('alert').filter({ hasText: 'No connection to the server. Trying again…' }).waitFor();
    expect(await page.getByLabel('First name').inputValue()).toBe('Lin');
    expect(await noSidewaysScroll(page)).toBe(true);
    await page.getByRole('heading', { name: 'Welcome, Lin' }).waitFor({ timeout: 15_000 });
    expect(sent).toBeGreaterThan(1);
    expect(await visitsNamed('Lost')).toHaveLength(1);

    // Offline at checkout: the phone says so, and the checkout goes through once it is back.
    await page.context().setOffline(true);
    await page.getByRole('button', { name: 'Check out' }).click();
    await page.getByRole('alert').filter({ hasText: 'No connection to the server. Trying again…' }).waitFor();
    expect((await visitsNamed('Lost'))[0]?.status).toBe('IN');
    await page.context().setOffline(false);
    await page.getByRole('heading', { name: 'You have checked out' }).waitFor({ timeout: 15_000 });
    const [visit] = await visitsNamed('Lost');
    expect(visit?.status).toBe('OUT');
    expect(visit?.exit?.source).toBe('QR_CODE');
    await page.context().close();
  });

  it('a visit staff refuse shows Please see reception, with no reason and no button', async () => {
    const code = await codeOf(world.siteId);
    await world.api.patch(`/v1/sites/${world.siteId}`, { visit: { requiresApproval: true } });
    const page = await phonePage();
    await page.goto(`${server.baseUrl}/visit/${code}`);
    await fillName(page, 'Rex', 'Refused');
    await page.getByRole('button', { name: 'Check in' }).click();
    await page.getByRole('heading', { name: 'Waiting for confirmation' }).waitFor();
    await page.getByText('Someone will confirm your visit shortly.', { exact: false }).waitFor();
    const [waiting] = await visitsNamed('Refused');
    expect(waiting?.status).toBe('PENDING');
    const denied = await world.api.post(`/v1/sites/${world.siteId}/checkins/people/${waiting?.checkinId}/deny`, {
      reason: 'Not expected today',
    });
    expect(denied.status).toBe(200);
    await page.getByRole('heading', { name: 'Please see reception' }).waitFor({ timeout: 15_000 });
    expect(await page.locator('body').innerText()).not.toMatch(/Not expected|Waiting|Welcome/);
    expect(await page.getByRole('button').count()).toBe(0);
    expect(await noSidewaysScroll(page)).toBe(true);
    await world.api.patch(`/v1/sites/${world.siteId}`, { visit: { requiresApproval: false } });
    await page.context().close();
  });

  it('a visit checked out at reception reads as checked out, and the phone forgets it', async () => {
    const code = await codeOf(world.siteId);
    const page = await phonePage();
    await page.goto(`${server.baseUrl}/visit/${code}`);
    await fillName(page, 'Oda', 'Elsewhere');
    await page.getByRole('button', { name: 'Check in' }).click();
    await page.getByRole('heading', { name: 'Welcome, Oda' }).waitFor();
    const [visit] = await visitsNamed('Elsewhere');
    const out = await world.api.post(`/v1/sites/${world.siteId}/checkins/people/${visit?.checkinId}/checkout`, {});
    expect(out.status).toBe(200);
    await page.reload();
    await page.getByRole('heading', { name: 'You have checked out' }).waitFor();
    expect(await page.evaluate(() => Object.keys(window.localStorage))).toEqual([]);
    await page.getByRole('button', { name: 'Check in again' }).click();
    await page.getByRole('button', { name: 'Check in' }).waitFor();
    await page.context().close();
  });

  it('past the hourly limit of its network, the phone says to ask reception and keeps what was typed', async () => {
    const code = await codeOf(world.otherSiteId);
    // The test and the browser reach the server from the same address.
    for (let index = 0; index < LIMIT; index++)
      expect((await phone(server.baseUrl).checkIn(code, visitor('Busy', `Lobby ${index}`))).status).toBe(201);
    const page = await phonePage(PHONE);
    await page.goto(`${server.baseUrl}/visit/${code}`);
    await fillName(page, 'Tim', 'Toomany');
    await page.getByRole('button', { name: 'Check in' }).click();
    await page
      .getByRole('alert')
      .filter({ hasText: 'Too many check-ins from this network. Please ask reception.' })
      .waitFor();
    expect(await page.getByLabel('Last name').inputValue()).toBe('Toomany');
    await page.getByRole('button', { name: 'Check in' }).waitFor();
    // The other site of the account is counted apart.
    const elsewhere = await phone(server.baseUrl).checkIn(await codeOf(world.siteId), visitor('Else', 'Where'));
    expect(elsewhere.status).toBe(201);
    await page.context().close();
  });
});
