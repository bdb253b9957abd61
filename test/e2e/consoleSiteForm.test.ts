import type { Browser, Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import type { PersonCheckin } from '../../shared/src/schemas/personCheckins';
import type { CheckinConfig, Site } from '../../shared/src/schemas/sites';
import { browserAvailable } from '../support/browser';
import { consoleAndKioskHooks } from '../support/consoleKiosk';
import { DESK, PHONE, consolePage, consoleScreenshot, noSidewaysScroll, signIn } from '../support/consoleWeb';
import { type World, buildToken, buildWorld } from '../support/factories';
import { openKioskPage, screenshot } from '../support/kioskWeb';
import type { KioskWeb } from '../support/kioskBuild';
import { type StaffMember, buildStaffUser } from '../support/staff';
import type { TestServer } from '../support/testServer';

/**
 * The kiosk keeps a fetched form for 5 minutes of server time (its clock is corrected by the server's, so
 * moving the device clock does not age it): the stored copy is made that much older instead.
 */
function ageKioskForm(page: Page, ms: number): Promise<void> {
  return page.evaluate(
    (age) =>
      new Promise<void>((resolve, reject) => {
        const request = indexedDB.open('gatehouse-kiosk');
        request.onerror = () => reject(request.error ?? new Error('IndexedDB request failed'));
        request.onsuccess = () => {
          const db = request.result;
          const store = db.transaction('siteConfigs', 'readwrite').objectStore('siteConfigs');
          const all = store.getAll();
          all.onsuccess = () => {
            for (const row of all.result as Array<{ fetchedAt: number }>)
              store.put({ ...row, fetchedAt: row.fetchedAt - age });
            store.transaction.oncomplete = () => {
              db.close();
              resolve();
            };
          };
          all.onerror = () => reject(all.error ?? new Error('IndexedDB request failed'));
        };
      }),
    ms,
  );
}

const CONFLICT = 'Someone else changed this form while you were editing. Reload it to see their changes.';

describe.skipIf(!browserAvailable())('the check-in form editor in the console, and a kiosk that follows it', () => {
  let server: TestServer;
  let browser: Browser;
  let web: KioskWeb;
  let world: World;
  let manager: StaffMember;
  let site2: Site;

  consoleAndKioskHooks((started) => ({ server, browser, web } = started));
  beforeAll(async () => {
    world = await buildWorld(server);
    manager = await buildStaffUser(server, {
      accountId: world.accountId,
      role: 'manager',
      siteIds: [world.otherSiteId],
      name: 'Mona Manager',
    });
    site2 = (await world.api.get<Site>(`/v1/sites/${world.otherSiteId}`)).body;
  });

  const config = async () =>
    (await world.api.get<CheckinConfig>(`/v1/sites/${world.otherSiteId}/checkins/people/config`)).body;
  const fieldGroup = (page: Page, name: string) => page.getByRole('group', { name: new RegExp(`\\(${name}\\)$`) });
  const preview = (page: Page) => page.getByRole('group', { name: 'Kiosk form preview' });

  async function openEditor(page: Page) {
    await page.getByRole('navigation').getByRole('link', { name: 'Sites', exact: true }).click();
    const row = page.getByRole('row').filter({ has: page.getByRole('rowheader', { name: site2.name, exact: true }) });
    await row.getByRole('button', { name: 'Edit form' }).click();
    await fieldGroup(page, 'firstName').waitFor();
  }

  async function addField(page: Page, name: string, label: string, type: 'select' | 'checkbox') {
    await page.getByLabel('Field name').fill(name);
    await page.getByRole('button', { name: 'Add field' }).click();
    const group = fieldGroup(page, name);
    await group.getByLabel('Label').fill(label);
    await group.getByLabel('Type').selectOption(type);
    return group;
  }

  it('a manager adds a required select and a checkbox to site 2; the paired kiosk shows them at its next config refresh', async () => {
    const kioskToken = await buildToken(server, {
      accountId: world.accountId,
      siteIds: [world.otherSiteId],
      channel: 'KIOSK',
      mode: 'visitor',
    });
    const kiosk = await openKioskPage(browser, web, {
      serverUrl: server.baseUrl,
      token: kioskToken.token,
      siteId: world.otherSiteId,
      mode: 'visitor',
    });
    await kiosk.page.getByRole('button', { name: 'Check in', exact: true }).click();
    await kiosk.page.getByLabel('First name', { exact: true }).waitFor();
    expect(await kiosk.page.getByLabel('Visit type').count()).toBe(0);
    await kiosk.page.getByRole('button', { name: 'Back' }).click();

    const { context, page } = await consolePage(browser);
    await signIn(page, server.baseUrl, manager.email, manager.password);
    // A manager configures sites and kiosks, but neither staff nor API tokens; and cannot add a site.
    expect(await page.getByRole('navigation').getByRole('link').allInnerTexts()).toEqual(
      expect.arrayContaining(['Sites', 'Kiosks']),
    );
    expect(await page.getByRole('navigation').getByRole('link', { name: 'API tokens' }).count()).toBe(0);
    await page.getByRole('navigation').getByRole('link', { name: 'Sites', exact: true }).click();
    await page.getByRole('rowheader', { name: site2.name, exact: true }).waitFor();
    expect(await page.getByRole('button', { name: 'Add a site' }).count()).toBe(0);
    expect(await page.getByRole('rowheader').allInnerTexts()).toEqual([site2.name]);
    expect(await noSidewaysScroll(page)).toBe(true);
    await consoleScreenshot(page, 'console-sites-manager-desk');

    await openEditor(page);
    // A name the server would refuse is refused here, in words.
    await page.getByLabel('Field name').fill('9lives');
    await page.getByRole('button', { name: 'Add field' }).click();
    await expect.poll(() => page.getByText('Use letters, digits and _').count()).toBe(1);
    const visitType = await addField(page, 'visitType', 'Visit type', 'select');
    await visitType.getByLabel('Required').check();
    // A select without options is refused before anything is sent.
    await page.getByRole('button', { name: 'Save form' }).click();
    await expect.poll(() => visitType.getByText('Give at least one option, one per line.').count()).toBe(1);
    await visitType.getByLabel('Options').fill('Meeting\nDelivery\n\nInterview');
    expect(await visitType.getByText('Give at least one option').count()).toBe(0);
    const safety = await addField(page, 'safetyRules', 'I have read the safety rules', 'checkbox');
    await safety.getByRole('button', { name: 'Move up' }).click();
    // The preview is the kiosk's form: the checkbox now before the select, "optional" beside what is optional.
    const previewLabels = () => preview(page).locator('label').allInnerTexts();
    await expect
      .poll(previewLabels)
      .toEqual(['First name', 'Last name', 'Email', 'Company', 'I have read the safety rules', 'Visit type']);
    expect(await preview(page).getByLabel('Visit type').locator('option').allInnerTexts()).toEqual([
      'Choose…',
      'Meeting',
      'Delivery',
      'Interview',
    ]);
    expect(await preview(page).getByText('optional').count()).toBe(3);
    expect(await noSidewaysScroll(page)).toBe(true);
    await consoleScreenshot(page, 'console-form-editor-desk');
    await page.setViewportSize(PHONE);
    expect(await noSidewaysScroll(page)).toBe(true);
    await consoleScreenshot(page, 'console-form-editor-phone');
    await page.setViewportSize(DESK);
    await page.getByRole('button', { name: 'Save form' }).click();
    await page.getByRole('status').filter({ hasText: 'Saved.' }).waitFor();
    const saved = await config();
    expect(saved.fields.map((field) => field.name)).toEqual([
      'firstName',
      'lastName',
      'email',
      'company',
      'safetyRules',
      'visitType',
    ]);
    expect(saved.fields.at(-1)).toEqual({
      name: 'visitType',
      label: 'Visit type',
      type: 'select',
      required: true,
      options: ['Meeting', 'Delivery', 'Interview'],
    });
    expect(saved.fields.at(-2)).toEqual({
      name: 'safetyRules',
      label: 'I have read the safety rules',
      type: 'checkbox',
      required: false,
    });
    await context.close();

    // Within the 5 minutes the kiosk still shows the form it holds; after them, the new one.
    await kiosk.page.getByRole('button', { name: 'Check in', exact: true }).click();
    await kiosk.page.getByLabel('First name', { exact: true }).waitFor();
    expect(await kiosk.page.getByLabel('Visit type').count()).toBe(0);
    await kiosk.page.getByRole('button', { name: 'Back' }).click();
    await ageKioskForm(kiosk.page, 5 * 60_000 + 1_000);
    // The form waits at most a second for the server; a slower answer is there for the next visitor.
    const formHasVisitType = async () => {
      await kiosk.page.getByRole('button', { name: 'Check in', exact: true }).click();
      await kiosk.page.getByLabel('First name', { exact: true }).waitFor();
      const shown = (await kiosk.page.getByLabel('Visit type').count()) === 1;
      if (!shown) await kiosk.page.getByRole('button', { name: 'Back' }).click();
      return shown;
    };
    await expect.poll(formHasVisitType, { timeout: 10_000 }).toBe(true);
    await kiosk.page.getByLabel('First name', { exact: true }).fill('Dora');
    await kiosk.page.getByLabel('Last name', { exact: true }).fill('Delivery');
    await kiosk.page.getByRole('button', { name: 'Check in', exact: true }).click();
    await kiosk.page.getByText('Please choose visit type.').waitFor();
    await screenshot(kiosk.page, 'kiosk-edited-form-required');
    await kiosk.page.getByLabel('Visit type').selectOption('Delivery');
    await kiosk.page.getByLabel('I have read the safety rules').check();
    await kiosk.page.getByRole('button', { name: 'Check in', exact: true }).click();
    await kiosk.page.getByText('Welcome, Dora').waitFor();
    const search = async () =>
      (
        await world.api.post<{ data: PersonCheckin[] }>('/v1/checkins/people/search', {
          siteIds: [world.otherSiteId],
          q: 'Delivery',
        })
      ).body.data;
    await expect
      .poll(async () => (await search())[0]?.customFields, { timeout: 10_000 })
      .toEqual({ visitType: 'Delivery', safetyRules: true });
    await kiosk.context.close();
  }, 120_000);

  it('a form changed by someone else meanwhile is refused with a Reload, and nothing is overwritten or lost', async () => {
    const { context, page } = await consolePage(browser, PHONE);
    await signIn(page, server.baseUrl, manager.email, manager.password);
    await page.getByRole('navigation').getByRole('link', { name: 'Sites', exact: true }).click();
    await page.getByRole('rowheader', { name: site2.name, exact: true }).waitFor();
    expect(await noSidewaysScroll(page)).toBe(true);
    await consoleScreenshot(page, 'console-sites-phone');
    await openEditor(page);

    // Someone else renames Company while this editor is open with an edit of mine (without one, the editor
    // would show theirs at once: it follows the event stream).
    const company = fieldGroup(page, 'company');
    await company.getByLabel('Label').fill('Employer');
    const before = await config();
    const theirs = {
      requiresApproval: before.requiresApproval,
      fields: before.fields.map((field) => (field.name === 'company' ? { ...field, label: 'Organisation' } : field)),
    };
    expect((await world.api.put(`/v1/sites/${world.otherSiteId}/checkins/people/config`, theirs)).status).toBe(200);
    await page.getByRole('status').filter({ hasText: 'This form was changed elsewhere.' }).waitFor();
    await page.getByRole('button', { name: 'Save form' }).click();
    const alert = page.getByRole('alert').filter({ hasText: CONFLICT });
    await alert.waitFor();
    await consoleScreenshot(page, 'console-form-conflict-phone');
    // Theirs stands; mine is still on screen until I choose to reload.
    expect((await config()).fields.find((field) => field.name === 'company')?.label).toBe('Organisation');
    expect(await company.getByLabel('Label').inputValue()).toBe('Employer');
    await alert.getByRole('button', { name: 'Reload' }).click();
    await expect.poll(() => company.getByLabel('Label').inputValue()).toBe('Organisation');
    expect(await page.getByText(CONFLICT).count()).toBe(0);

    // After the reload a save goes through (the new version is the one sent).
    await page.getByLabel('Requires approval').check();
    await page.getByRole('button', { name: 'Save form' }).click();
    await page.getByRole('status').filter({ hasText: 'Saved.' }).waitFor();
    expect(await config()).toMatchObject({
      requiresApproval: true,
      fields: expect.arrayContaining([expect.objectContaining({ name: 'company', label: 'Organisation' })]),
    });

    // Leaving with unsaved changes asks first.
    await company.getByRole('button', { name: 'Remove' }).click();
    await page.getByRole('button', { name: 'Back to sites' }).click();
    const leave = page.getByRole('dialog', { name: 'Leave without saving?' });
    await leave.getByRole('button', { name: 'Cancel' }).click();
    expect(await fieldGroup(page, 'email').count()).toBe(1);
    await page.getByRole('button', { name: 'Back to sites' }).click();
    await leave.getByRole('button', { name: 'Leave' }).click();
    await page.getByRole('heading', { name: 'Sites' }).waitFor();
    expect((await config()).fields.some((field) => field.name === 'company')).toBe(true);
    await context.close();
  }, 90_000);
});
