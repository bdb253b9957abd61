import type { Browser, Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Site } from '../../shared/src/schemas/sites';
import { seriousViolations } from '../support/axe';
import { browserAvailable } from '../support/browser';
import { consoleBrowserHooks, consolePage, signIn } from '../support/consoleWeb';
import { type World, buildWorld } from '../support/factories';
import { buildStaffUser } from '../support/staff';
import type { TestServer } from '../support/testServer';

describe.skipIf(!browserAvailable())("a site's default language in the console", () => {
  let server: TestServer;
  let browser: Browser;
  let world: World;

  consoleBrowserHooks((started) => ({ server, browser } = started));
  beforeAll(async () => {
    world = await buildWorld(server);
  });

  const rowOf = (page: Page, name: string) =>
    page.getByRole('row').filter({ has: page.getByRole('rowheader', { name, exact: true }) });

  it('a manager picks the language its kiosks greet visitors in, on the Sites page', async () => {
    const manager = await buildStaffUser(server, {
      accountId: world.accountId,
      role: 'manager',
      siteIds: [world.siteId],
    });
    const siteName = (await world.api.get<Site>(`/v1/sites/${world.siteId}`)).body.name;
    const { page } = await consolePage(browser);
    await signIn(page, server.baseUrl, manager.email, manager.password);
    await page.getByRole('navigation').getByRole('link', { name: 'Sites', exact: true }).click();
    const row = rowOf(page, siteName);
    await row.getByRole('cell', { name: 'English', exact: true }).waitFor();
    expect(await seriousViolations(page), 'Sites').toEqual([]);
    await row.getByRole('button', { name: 'Language', exact: true }).click();
    const dialog = page.getByRole('dialog', { name: `Visitors' language at ${siteName}` });
    const select = dialog.getByLabel('Default language');
    // Each language by its English name, and in its own.
    expect(await select.locator('option').allInnerTexts()).toEqual([
      'English',
      'German · Deutsch',
      'French · Français',
      'Spanish · Español',
      'Chinese (Simplified) · 中文 (简体)',
      'Arabic · العربية',
    ]);
    await select.selectOption({ label: 'Arabic · العربية' });
    expect(await seriousViolations(page), 'Language dialog').toEqual([]);
    await dialog.getByRole('button', { name: 'Save' }).click();
    await row.getByRole('cell', { name: 'Arabic · العربية' }).waitFor();
    expect((await world.api.get<Site>(`/v1/sites/${world.siteId}`)).body.defaultLanguage).toBe('ar');
    // The console itself stays English.
    expect(await page.evaluate(() => document.documentElement.lang)).toBe('en');
  });
});
