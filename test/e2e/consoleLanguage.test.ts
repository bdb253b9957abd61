import type { Browser } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Site } from '../../shared/src/schemas/sites';
import { seriousViolations } from '../support/axe';
import { browserAvailable } from '../support/browser';
import { consoleBrowserHooks, consolePage, signIn, sitesPageAsManager } from '../support/consoleWeb';
import { type World, buildWorld } from '../support/factories';
import { buildStaffUser } from '../support/staff';
import type { TestServer } from '../support/testServer';

describe.skipIf(!browserAvailable())("the console: a site's default language, and axe on every screen", () => {
  let server: TestServer;
  let browser: Browser;
  let world: World;

  consoleBrowserHooks((started) => ({ server, browser } = started));
  beforeAll(async () => {
    world = await buildWorld(server);
  });

  it('a manager picks the language its kiosks greet visitors in, on the Sites page', async () => {
    const { page, siteName, row } = await sitesPageAsManager(server, browser, world);
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
  }, 60_000);

  it('every screen an owner has, and the sign-in, has no serious or critical axe finding', async () => {
    const owner = await buildStaffUser(server, { accountId: world.accountId, role: 'owner' });
    const { page } = await consolePage(browser);
    await page.goto(`${server.baseUrl}/console`);
    await page.getByLabel('Password').waitFor();
    expect(await seriousViolations(page), 'Sign in').toEqual([]);
    await signIn(page, server.baseUrl, owner.email, owner.password);
    const links = await page.getByRole('navigation').getByRole('link').allInnerTexts();
    expect(links.length).toBeGreaterThan(8);
    const found: string[] = [];
    for (const name of links) {
      await page.getByRole('navigation').getByRole('link', { name: name.trim(), exact: true }).click();
      await page.getByRole('heading', { level: 1 }).first().waitFor();
      // Loaded: what the screen shows once its data is in, not its "Loading…".
      await expect.poll(() => page.locator('[aria-busy="true"]').count()).toBe(0);
      found.push(...(await seriousViolations(page)).map((violation) => `${name.trim()}: ${violation}`));
    }
    expect(found).toEqual([]);
    // Every screen and an axe run on each: 7.5 s in a CI run, and over 30 s once beside four engineers' tests.
  }, 90_000);
});
