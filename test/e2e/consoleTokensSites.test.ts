import type { Browser, Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
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
} from '../support/consoleWeb';
import { type World, buildWorld, visitor } from '../support/factories';
import { apiClient } from '../support/http';
import { type StaffMember, buildStaffUser } from '../support/staff';
import type { TestServer } from '../support/testServer';

describe.skipIf(!browserAvailable())('API tokens and sites in the console', () => {
  let server: TestServer;
  let browser: Browser;
  let world: World;
  let owner: StaffMember;

  consoleBrowserHooks((started) => ({ server, browser } = started));
  beforeAll(async () => {
    world = await buildWorld(server);
    owner = await buildStaffUser(server, { accountId: world.accountId, role: 'owner', name: 'Olga Owner' });
  });

  const open = (page: Page, name: string) =>
    page.getByRole('navigation').getByRole('link', { name, exact: true }).click();

  async function fitsBothSizes(page: Page, name: string) {
    await consoleScreenshot(page, `${name}-desk`);
    expect(await noSidewaysScroll(page)).toBe(true);
    await page.setViewportSize(PHONE);
    expect(await noSidewaysScroll(page)).toBe(true);
    await consoleScreenshot(page, `${name}-phone`);
    await page.setViewportSize(DESK);
  }

  it('an owner creates an API token, sees it once, uses it, and revokes it', async () => {
    const { context, page } = await consolePage(browser);
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: server.baseUrl });
    await signIn(page, server.baseUrl, owner.email, owner.password);
    await open(page, 'API tokens');
    await page.getByRole('heading', { name: 'API tokens' }).waitFor();

    await page.getByRole('button', { name: 'Create token' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByRole('button', { name: 'Create token' }).click();
    await expect.poll(() => dialog.getByRole('alert').innerText()).toContain('Give the token a name');
    await dialog.getByLabel('Name').fill('Payroll export');
    // Only the scopes asked for: reading check-ins, for every site.
    for (const box of await dialog.getByRole('group', { name: 'Scopes' }).getByRole('checkbox').all())
      await box.uncheck();
    await dialog.getByRole('checkbox', { name: /^checkins:read/ }).check();
    expect(await dialog.getByRole('checkbox', { name: /^All sites/ }).isChecked()).toBe(true);
    await consoleScreenshot(page, 'console-token-create-desk');
    await page.setViewportSize(PHONE);
    expect(await noSidewaysScroll(page)).toBe(true);
    await consoleScreenshot(page, 'console-token-create-phone');
    await page.setViewportSize(DESK);
    await dialog.getByRole('button', { name: 'Create token' }).click();
    await dialog.getByText('You will not see this token again.').waitFor();
    const token = await dialog.getByLabel('Token').inputValue();
    expect(token.length).toBeGreaterThan(20);
    await dialog.getByRole('button', { name: 'Copy' }).click();
    await dialog.getByRole('button', { name: 'Copied' }).waitFor();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(token);
    await consoleScreenshot(page, 'console-token-shown-desk');

    const integrator = apiClient(server.baseUrl, token);
    expect((await integrator.get(`/v1/sites/${world.siteId}/checkins/people`)).status).toBe(200);
    // Least privilege: it may read, not write.
    expect((await integrator.post(`/v1/sites/${world.siteId}/checkins/people`, visitor())).status).toBe(403);

    await dialog.getByRole('button', { name: 'Done' }).click();
    const row = rowNamed(page, 'Payroll export');
    await expect.poll(() => row.innerText()).toMatch(/All sites[\s\S]*checkins:read[\s\S]*Never/);
    await fitsBothSizes(page, 'console-tokens');

    await row.getByRole('button', { name: 'Revoke' }).click();
    const confirm = page.getByRole('dialog');
    await confirm.getByText('Every request with this token is refused').waitFor();
    await confirm.getByRole('button', { name: 'Revoke' }).click();
    await expect.poll(() => row.count()).toBe(0);
    expect((await integrator.get(`/v1/sites/${world.siteId}/checkins/people`)).status).toBe(401);
    await context.close();
  }, 90_000);

  it('an owner adds a site, renames it, changes its time zone, archives and restores it', async () => {
    const { context, page } = await consolePage(browser);
    await signIn(page, server.baseUrl, owner.email, owner.password);
    await open(page, 'Sites');
    await page.getByRole('button', { name: 'Add a site' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByLabel('Name').fill('Harbour depot');
    await dialog.getByLabel('Time zone').selectOption('Europe/Berlin');
    await dialog.getByRole('button', { name: 'Add site' }).click();
    await rowNamed(page, 'Harbour depot').waitFor();
    const sites = async () => (await world.api.get<{ data: Site[] }>('/v1/sites?archived=true')).body.data;
    const created = (await sites()).find((site) => site.name === 'Harbour depot');
    expect(created).toMatchObject({ timezone: 'Europe/Berlin', archivedAt: null });
    const siteId = created?.siteId ?? 0;

    await rowNamed(page, 'Harbour depot').getByRole('button', { name: 'Rename' }).click();
    await page.getByRole('dialog').getByLabel('Name').fill('Harbour gate');
    await page.getByRole('dialog').getByRole('button', { name: 'Save' }).click();
    const row = rowNamed(page, 'Harbour gate');
    await row.waitFor();
    await row.getByRole('button', { name: 'Time zone' }).click();
    await page.getByRole('dialog').getByLabel('Time zone').selectOption('America/New_York');
    await page.getByRole('dialog').getByRole('button', { name: 'Save' }).click();
    await expect.poll(() => row.innerText()).toContain('America/New York');

    await row.getByRole('button', { name: 'Archive' }).click();
    await expect.poll(() => row.innerText()).toContain('Archived');
    const refused = await world.api.post<{ code: string }>(`/v1/sites/${siteId}/checkins/people`, visitor());
    expect(refused.status).toBe(409);
    expect(refused.body.code).toBe('SITE_ARCHIVED');
    await fitsBothSizes(page, 'console-sites-owner');
    await row.getByRole('button', { name: 'Restore' }).click();
    await expect.poll(() => row.innerText()).toContain('Open');
    expect((await world.api.post(`/v1/sites/${siteId}/checkins/people`, visitor())).status).toBe(201);
    expect((await sites()).find((site) => site.siteId === siteId)).toMatchObject({
      name: 'Harbour gate',
      timezone: 'America/New_York',
      archivedAt: null,
    });
    await context.close();
  }, 90_000);
});
