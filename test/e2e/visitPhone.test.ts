import type { Browser, Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Host } from '../../shared/src/schemas/hosts';
import type { PersonCheckin } from '../../shared/src/schemas/personCheckins';
import type { Site } from '../../shared/src/schemas/sites';
import { browserAvailable } from '../support/browser';
import {
  DESK,
  consoleBrowserHooks,
  consolePage,
  consoleScreenshot,
  noSidewaysScroll,
  signIn,
} from '../support/consoleWeb';
import { type World, buildWorld } from '../support/factories';
import { readPdf } from '../support/pdfReadback';
import { buildStaffUser } from '../support/staff';
import type { TestServer } from '../support/testServer';
import { builtVisitPage } from '../support/visitBuild';

// The visitor's own phone (docs/running-a-site.md, The visitor's phone), at the two phone widths.
const widths = [
  { name: '360', viewport: { width: 360, height: 640 } },
  { name: '390', viewport: { width: 390, height: 844 } },
];

describe.skipIf(!browserAvailable())('the visitor’s phone', () => {
  let server: TestServer;
  let browser: Browser;
  let world: World;
  let siteName: string;
  let code: string;

  beforeAll(async () => {
    await builtVisitPage();
  }, 180_000);
  consoleBrowserHooks((started) => ({ server, browser } = started));
  beforeAll(async () => {
    world = await buildWorld(server);
    const site = (await world.api.get<Site>(`/v1/sites/${world.siteId}`)).body;
    siteName = site.name;
    code = site.visit.code;
    await world.api.post<Host>('/v1/hosts', { name: 'Grace Hopper', siteIds: [world.siteId] });
    // The site's form asks who the visitor comes to see, from its hosts.
    const config = (await world.api.get<{ fields: unknown[] }>(`/v1/sites/${world.siteId}/checkins/people/config`))
      .body;
    await world.api.put(`/v1/sites/${world.siteId}/checkins/people/config`, {
      requiresApproval: false,
      fields: [...config.fields, { name: 'hostName', label: 'Who are you visiting?', type: 'host', required: true }],
    });
  });

  const phonePage = async (viewport: { width: number; height: number }) => {
    const context = await browser.newContext({ viewport, isMobile: true, hasTouch: true });
    const page = await context.newPage();
    page.on('pageerror', (error) => console.error('visit page error:', error.message));
    return page;
  };

  const fillForm = async (page: Page, first: string, last: string, email?: string) => {
    await page.getByLabel('First name').fill(first);
    await page.getByLabel('Last name').fill(last);
    if (email) await page.getByLabel('Email').fill(email);
    await page.getByLabel('Who are you visiting?').selectOption({ label: 'Grace Hopper' });
  };

  const fits = async (page: Page, step: string) => expect(await noSidewaysScroll(page), step).toBe(true);

  it('the QR poster a manager downloads from the Sites page opens the site’s page on a phone', async () => {
    const manager = await buildStaffUser(server, {
      accountId: world.accountId,
      role: 'manager',
      siteIds: [world.siteId],
    });
    const { page: desk } = await consolePage(browser, DESK);
    await signIn(desk, server.baseUrl, manager.email, manager.password);
    await desk.getByRole('navigation').getByRole('link', { name: 'Sites', exact: true }).click();
    const row = desk.getByRole('row').filter({ has: desk.getByRole('rowheader', { name: siteName, exact: true }) });
    await row.getByRole('cell', { name: code }).waitFor();
    const href = await row.getByRole('link', { name: 'QR poster' }).getAttribute('href');
    const poster = await desk.request.get(`${server.baseUrl}${href ?? ''}`);
    expect(poster.status()).toBe(200);
    const pdf = readPdf(await poster.body());
    expect(pdf.text).toContain('Scan to sign in');
    expect(pdf.text).toContain(siteName);
    expect(pdf.qr).toBe(`${server.baseUrl}/visit/${code}`);
    for (const { name, viewport } of widths) {
      const page = await phonePage(viewport);
      const answer = await page.goto(pdf.qr ?? '');
      expect(answer?.status()).toBe(200);
      expect(answer?.headers()['content-security-policy']).toContain("script-src 'self'");
      await page.getByRole('heading', { name: siteName }).waitFor();
      await page.getByRole('button', { name: 'Check in' }).waitFor();
      await fits(page, `form at ${name}`);
      await consoleScreenshot(page, `visit-form-${name}`);
      await page.context().close();
    }
  });

  for (const { name, viewport } of widths) {
    it(`at ${name} px: checks in, takes a break, ends it and checks out`, async () => {
      const page = await phonePage(viewport);
      await page.goto(`${server.baseUrl}/visit/${code}`);
      await fillForm(page, 'Ada', `Lovelace ${name}`);
      await page.getByRole('button', { name: 'Check in' }).click();
      await page.getByRole('heading', { name: 'Welcome, Ada' }).waitFor();
      await page.getByText('Show this screen at reception.').waitFor();
      await page.getByText('Visiting Grace Hopper').waitFor();
      await fits(page, 'confirmation');
      await consoleScreenshot(page, `visit-welcome-${name}`);
      // The visit stays on this phone: a reload shows it, not a new form.
      await page.reload();
      await page.getByRole('button', { name: 'Take a break' }).click();
      await page.getByRole('heading', { name: 'You are on a break' }).waitFor();
      await fits(page, 'on a break');
      await page.getByRole('button', { name: 'End break' }).click();
      await page.getByRole('heading', { name: 'Welcome, Ada' }).waitFor();
      await page.getByRole('button', { name: 'Check out' }).click();
      await page.getByRole('heading', { name: 'You have checked out' }).waitFor();
      await fits(page, 'checked out');
      const list = await world.api.get<{ data: PersonCheckin[] }>(
        `/v1/sites/${world.siteId}/checkins/people?status=OUT`,
      );
      const visit = list.body.data.find((item) => item.person.lastName === `Lovelace ${name}`);
      expect(visit?.entry.source).toBe('QR_CODE');
      expect(visit?.exit?.source).toBe('QR_CODE');
      expect(visit?.breaks).toHaveLength(1);
      expect(visit?.breaks[0]?.endedAt).not.toBeNull();
      // The visit key never left in an address, and what is stored under the code is gone with the visit.
      expect(await page.evaluate(() => Object.keys(window.localStorage))).toEqual([]);
      await page.reload();
      await page.getByRole('button', { name: 'Check in' }).waitFor();
      await page.context().close();
    });
  }

  it('a watchlisted visitor sees Please see reception and nothing else, also after a reload', async () => {
    await world.api.post('/v1/watchlist/people', { email: 'eve@example.com', reason: 'Banned after the incident' });
    for (const { name, viewport } of widths) {
      const page = await phonePage(viewport);
      await page.goto(`${server.baseUrl}/visit/${code}`);
      await fillForm(page, 'Eve', `Stopped ${name}`, 'eve@example.com');
      await page.getByRole('button', { name: 'Check in' }).click();
      await page.getByRole('heading', { name: 'Please see reception' }).waitFor();
      await fits(page, `stop at ${name}`);
      const text = await page.locator('body').innerText();
      expect(text).not.toMatch(/Banned|incident|Welcome|checked in|Eve/i);
      expect(await page.getByRole('button').count()).toBe(0);
      await page.reload();
      await page.getByRole('heading', { name: 'Please see reception' }).waitFor();
      expect(await page.getByRole('button').count()).toBe(0);
      await consoleScreenshot(page, `visit-stop-${name}`);
      await page.context().close();
    }
  });

  it('with QR check-ins needing approval, the phone waits and shows the decision when staff make it', async () => {
    await world.api.patch(`/v1/sites/${world.siteId}`, { visit: { requiresApproval: true } });
    for (const { name, viewport } of widths) {
      const page = await phonePage(viewport);
      await page.goto(`${server.baseUrl}/visit/${code}`);
      await fillForm(page, 'Grace', `Waiting ${name}`);
      await page.getByRole('button', { name: 'Check in' }).click();
      await page.getByRole('heading', { name: 'Waiting for confirmation' }).waitFor();
      await fits(page, `waiting at ${name}`);
      const pending = await world.api.get<{ data: PersonCheckin[] }>(
        `/v1/sites/${world.siteId}/checkins/people?status=PENDING`,
      );
      const visit = pending.body.data.find((item) => item.person.lastName === `Waiting ${name}`);
      expect(visit?.entry.source).toBe('QR_CODE');
      await world.api.post(`/v1/sites/${world.siteId}/checkins/people/${visit?.checkinId}/approve`, {});
      await page.getByRole('heading', { name: 'Welcome, Grace' }).waitFor({ timeout: 15_000 });
      await page.getByRole('button', { name: 'Take a break' }).waitFor();
      await page.context().close();
    }
    await world.api.patch(`/v1/sites/${world.siteId}`, { visit: { requiresApproval: false } });
  });

  it('an unknown or rotated code is a 404 page that says to ask reception', async () => {
    const old = (await world.api.get<Site>(`/v1/sites/${world.otherSiteId}`)).body.visit.code;
    const rotated = (await world.api.post<Site>(`/v1/sites/${world.otherSiteId}/visit-code`, {})).body;
    expect(rotated.visit.code).not.toBe(old);
    const page = await phonePage(widths[0]?.viewport ?? DESK);
    for (const gone of ['ZZZZZZZZZZ', old]) {
      const answer = await page.goto(`${server.baseUrl}/visit/${gone}`);
      expect(answer?.status()).toBe(404);
      await page.getByRole('heading', { name: 'This code is not in use' }).waitFor();
      await page.getByText('Please ask reception to check you in.').waitFor();
      await fits(page, 'unknown code');
    }
    await page.context().close();
  });

  it('on the Sites page a manager makes phone check-ins wait for approval, and gives the site a new code', async () => {
    const manager = await buildStaffUser(server, {
      accountId: world.accountId,
      role: 'manager',
      siteIds: [world.siteId],
    });
    const { page: desk } = await consolePage(browser, DESK);
    await signIn(desk, server.baseUrl, manager.email, manager.password);
    await desk.getByRole('navigation').getByRole('link', { name: 'Sites', exact: true }).click();
    const row = desk.getByRole('row').filter({ has: desk.getByRole('rowheader', { name: siteName, exact: true }) });
    await row.getByRole('button', { name: 'Phone check-ins' }).click();
    const dialog = desk.getByRole('dialog', { name: `Phone check-ins at ${siteName}` });
    await dialog.getByRole('checkbox', { name: 'QR check-ins need approval' }).check();
    await dialog.getByRole('button', { name: 'Save' }).click();
    await row.getByRole('cell', { name: `${code} · need approval` }).waitFor();
    expect((await world.api.get<Site>(`/v1/sites/${world.siteId}`)).body.visit.requiresApproval).toBe(true);
    await row.getByRole('button', { name: 'Phone check-ins' }).click();
    await dialog.getByRole('checkbox', { name: 'QR check-ins need approval' }).uncheck();
    await dialog.getByRole('button', { name: 'Save' }).click();
    await row.getByRole('cell', { name: code, exact: true }).waitFor();
    await row.getByRole('button', { name: 'Phone check-ins' }).click();
    await dialog.getByRole('button', { name: 'New visit code' }).click();
    await dialog
      .getByRole('group', { name: 'New visit code' })
      .getByRole('button', { name: 'Make a new code' })
      .click();
    await row.getByRole('cell', { name: code, exact: true }).waitFor({ state: 'detached' });
    const renewed = (await world.api.get<Site>(`/v1/sites/${world.siteId}`)).body.visit.code;
    expect(renewed).not.toBe(code);
    await row.getByRole('cell', { name: renewed, exact: true }).waitFor();
    const phone = await phonePage(widths[1]?.viewport ?? DESK);
    expect((await phone.goto(`${server.baseUrl}/visit/${code}`))?.status()).toBe(404);
    await phone.goto(`${server.baseUrl}/visit/${renewed}`);
    await phone.getByRole('button', { name: 'Check in' }).waitFor();
    await phone.context().close();
    code = renewed;
  });
});
