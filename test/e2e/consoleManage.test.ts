import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Site } from '../../shared/src/schemas/sites';
import type { VehicleCheckin } from '../../shared/src/schemas/vehicles';
import type { WebhookDispatcher } from '../../server/src/jobs/webhookDispatcher';
import { browserAvailable } from '../support/browser';
import {
  DESK,
  PHONE,
  consoleBrowserHooks,
  consolePage,
  consoleScreenshot,
  noSidewaysScroll,
  setupLinkFor,
  signIn,
} from '../support/consoleWeb';
import { type World, buildWorld, visitor } from '../support/factories';
import type { TestServer } from '../support/testServer';
import { type Receiver, startReceiver } from '../support/webhookReceiver';
import { startTestDispatcher } from '../support/webhooks';

const PASSWORD = 'correct horse battery staple';
const owner = { email: 'olga.owner@example.com', name: 'Olga Owner' };
const security = { email: 'sid.security@example.com', name: 'Sid Security' };
const temp = { email: 'tia.temp@example.com', name: 'Tia Temp' };

type Nav = 'Vehicles' | 'Watchlist' | 'Staff' | 'Webhooks' | 'Audit log';

describe.skipIf(!browserAvailable())('console administration in a real browser', () => {
  let server: TestServer;
  let browser: Browser;
  let world: World;
  let site: Site;
  let ownerPage: Page;
  let dispatcher: WebhookDispatcher;
  let receiver: Receiver;

  consoleBrowserHooks((started) => ({ server, browser } = started), { WEBHOOK_ALLOW_PRIVATE_URLS: 'true' });
  beforeAll(async () => {
    world = await buildWorld(server);
    site = (await world.api.get<Site>(`/v1/sites/${world.siteId}`)).body;
    // No scheduled retries: the first failed attempt marks the delivery failed, for the console's Retry.
    dispatcher = startTestDispatcher(server, { retryPolicy: { scheduleMs: [], random: () => 0.5 } });
    receiver = await startReceiver();
    const { page } = await consolePage(browser);
    ownerPage = page;
    await page.goto(await setupLinkFor(server, world.accountId));
    await page.getByLabel('Name').fill(owner.name);
    await page.getByLabel('Email').fill(owner.email);
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Create owner' }).click();
    await page.getByRole('button', { name: 'Sign out' }).waitFor();
  }, 60_000);
  afterAll(async () => {
    await dispatcher?.stop();
    await receiver?.close();
  });

  const open = (page: Page, name: Nav) => page.getByRole('navigation').getByRole('link', { name, exact: true }).click();
  const rowOf = (page: Page, text: string) => page.getByRole('row').filter({ hasText: text });
  const dialog = (page: Page) => page.getByRole('dialog');

  /** The page at both sizes: no sideways scrolling, and a screenshot of each to look at. */
  async function checkSizes(page: Page, name: string) {
    for (const [size, viewport] of [
      ['desk', DESK],
      ['phone', PHONE],
    ] as const) {
      await page.setViewportSize(viewport);
      expect(await noSidewaysScroll(page), `${name} at ${size} scrolls sideways`).toBe(true);
      await consoleScreenshot(page, `console-${name}-${size}`);
    }
    await page.setViewportSize(DESK);
  }

  /** Invites through the Staff page; returns the invitation link the dialog showed once. */
  async function invite(page: Page, who: { email: string; name: string }, role: string): Promise<string> {
    await page.getByRole('button', { name: 'Invite' }).click();
    const box = dialog(page);
    await box.getByLabel('Email').fill(who.email);
    await box.getByLabel('Name').fill(who.name);
    await box.getByLabel('Role').selectOption(role);
    await box.getByLabel(site.name).check();
    await box.getByRole('button', { name: 'Invite' }).click();
    await box.getByText('You will not see this again.').waitFor();
    const link = await box.getByLabel('Invitation link').inputValue();
    expect(link).toContain('/console/invitation?code=');
    return link;
  }

  it('an owner invites staff (link shown once), changes a role and disables a user', async () => {
    const page = ownerPage;
    await open(page, 'Staff');
    await page.getByRole('heading', { name: 'Staff' }).waitFor();
    // A 422 lands next to its field.
    await page.getByRole('button', { name: 'Invite' }).click();
    await dialog(page).getByLabel('Email').fill('not an email');
    await dialog(page).getByLabel('Name').fill('Nobody');
    await dialog(page).getByRole('button', { name: 'Invite' }).click();
    await expect
      .poll(() => dialog(page).getByRole('alert').innerText())
      .toBe('Choose at least one site, or All sites.');
    await dialog(page).getByLabel(site.name).check();
    await dialog(page).getByRole('button', { name: 'Invite' }).click();
    await expect.poll(() => dialog(page).locator('.field-error').count()).toBe(1);
    await checkSizes(page, 'staff-invite-error');
    await dialog(page).getByRole('button', { name: 'Cancel' }).click();

    const securityLink = await invite(page, security, 'security');
    await checkSizes(page, 'staff-invitation-link');
    await dialog(page).getByRole('button', { name: 'Done' }).click();
    await invite(page, temp, 'reception');
    await dialog(page).getByRole('button', { name: 'Done' }).click();
    await expect.poll(() => rowOf(page, temp.email).innerText()).toContain('reception');

    await page.getByRole('button', { name: `Edit ${temp.name}` }).click();
    await dialog(page).getByLabel('Role').selectOption('manager');
    await dialog(page).getByRole('button', { name: 'Save' }).click();
    await expect.poll(() => rowOf(page, temp.email).innerText()).toContain('manager');

    await page.getByRole('button', { name: `Disable ${temp.name}` }).click();
    await dialog(page).getByRole('button', { name: 'Disable' }).click();
    await expect.poll(() => rowOf(page, temp.email).innerText()).toContain('Disabled');
    await page.getByRole('button', { name: `Enable ${temp.name}` }).click();
    await expect.poll(() => rowOf(page, temp.email).innerText()).toContain('Active');
    await page.getByRole('button', { name: `Disable ${temp.name}` }).click();
    await dialog(page).getByRole('button', { name: 'Disable' }).click();
    await page.getByRole('button', { name: `Enable ${temp.name}` }).waitFor();

    await page.getByRole('button', { name: `Password reset link for ${temp.name}` }).click();
    await dialog(page).getByRole('button', { name: 'Make the link' }).click();
    await dialog(page).getByText('You will not see this again.').waitFor();
    expect(await dialog(page).getByLabel('Password reset link').inputValue()).toContain('code=');
    await dialog(page).getByRole('button', { name: 'Done' }).click();
    await checkSizes(page, 'staff');

    // The security user takes the invitation.
    const { context, page: invited } = await consolePage(browser);
    await invited.goto(securityLink);
    await invited.getByLabel('Password').fill(PASSWORD);
    await invited.getByRole('button', { name: 'Set password' }).click();
    await invited.getByRole('button', { name: 'Sign out' }).waitFor();
    await context.close();
  }, 90_000);

  it('a security user sees Vehicles and Watchlist, not Staff, and manages the watchlist and a blocked vehicle', async () => {
    const { context, page } = await consolePage(browser);
    await signIn(page, server.baseUrl, security.email, PASSWORD);
    const nav = page.getByRole('navigation');
    await nav.getByRole('link', { name: 'Vehicles' }).waitFor();
    await nav.getByRole('link', { name: 'Watchlist' }).waitFor();
    for (const hidden of ['Staff', 'Webhooks', 'Audit log'])
      expect(await nav.getByRole('link', { name: hidden }).count()).toBe(0);

    await open(page, 'Watchlist');
    await page.getByRole('button', { name: 'Add to the watchlist' }).click();
    await dialog(page).getByLabel('First name').fill('Mallory');
    await dialog(page).getByLabel('Last name').fill('Banned');
    await dialog(page).getByLabel('Email').fill('mallory@');
    await dialog(page).getByRole('button', { name: 'Add' }).click();
    await expect.poll(() => dialog(page).locator('.field-error').innerText()).not.toBe('');
    await dialog(page).getByLabel('Email').fill('mallory@example.com');
    await dialog(page).getByLabel('Reason').fill('Trespass notice');
    await dialog(page).getByRole('button', { name: 'Add' }).click();
    await rowOf(page, 'mallory@example.com').waitFor();
    expect(await rowOf(page, 'mallory@example.com').innerText()).toContain('Trespass notice');
    await page.getByRole('button', { name: 'Edit Mallory Banned' }).click();
    await dialog(page).getByLabel('Reason').fill('Trespass notice, renewed');
    await dialog(page).getByLabel('Phone').fill('+44 20 7946 0000');
    await dialog(page).getByRole('button', { name: 'Save' }).click();
    await expect.poll(() => rowOf(page, 'mallory@example.com').innerText()).toContain('renewed');
    expect(await rowOf(page, 'mallory@example.com').innerText()).toContain('+44 20 7946 0000');
    await checkSizes(page, 'watchlist');
    await page.getByRole('button', { name: 'Remove Mallory Banned' }).click();
    await dialog(page).getByRole('button', { name: 'Remove' }).click();
    await page.getByText('Nobody is on the watchlist.').waitFor();

    await open(page, 'Vehicles');
    await page.getByRole('button', { name: 'Add a label' }).click();
    await dialog(page).getByLabel('Label name').fill('Banned');
    await dialog(page).getByLabel('Blocks entry').check();
    await dialog(page).getByRole('button', { name: 'Add' }).click();
    await page.getByRole('listitem').filter({ hasText: 'Banned' }).getByText('Blocks entry').waitFor();

    await page.getByRole('button', { name: 'Add a vehicle' }).click();
    await dialog(page).getByLabel('License plate').fill('ab-123 cd');
    await dialog(page).getByLabel('Make').fill('Volvo');
    await dialog(page).getByLabel('Banned (blocks entry)').check();
    await dialog(page).getByRole('button', { name: 'Add' }).click();
    await expect.poll(() => rowOf(page, 'ab-123 cd').innerText()).toContain('Banned (blocks entry)');

    await page.getByRole('button', { name: 'Edit ab-123 cd' }).click();
    await dialog(page).getByLabel('Color').fill('Red');
    await dialog(page).getByRole('button', { name: 'Save' }).click();
    await expect.poll(() => rowOf(page, 'ab-123 cd').innerText()).toContain('Red Volvo');
    // The label the console set blocks the vehicle at the gate.
    const entry = await world.api.post<VehicleCheckin>(`/v1/sites/${world.siteId}/checkins/vehicles`, {
      licensePlate: 'AB123CD',
    });
    expect(entry.body.status).toBe('STOP');

    await page.getByLabel('Search by plate').fill('AB123CD');
    await page.getByRole('button', { name: 'Search' }).click();
    await expect.poll(() => page.getByRole('row').count()).toBe(2);
    await checkSizes(page, 'vehicles');
    await page.getByRole('button', { name: 'Delete ab-123 cd' }).click();
    await dialog(page).getByRole('button', { name: 'Delete' }).click();
    await page.getByText('No vehicle with plate AB123CD.').waitFor();
    await context.close();
  }, 90_000);

  it('an owner adds a webhook (secret shown once) and retries a failed delivery from its log', async () => {
    const page = ownerPage;
    receiver.answer = (_request, index) => ({ status: index === 0 ? 500 : 200 });
    await open(page, 'Webhooks');
    await page.getByRole('button', { name: 'Add a webhook' }).click();
    await dialog(page).getByLabel('URL').fill(receiver.url('/hook'));
    await dialog(page).getByLabel('Person check-in entered').check();
    await checkSizes(page, 'webhook-add');
    await dialog(page).getByRole('button', { name: 'Add' }).click();
    await dialog(page).getByText('You will not see this again.').waitFor();
    expect(await dialog(page).getByLabel('Signing secret').inputValue()).toMatch(/^whsec_/);
    await checkSizes(page, 'webhook-secret');
    await dialog(page).getByRole('button', { name: 'Done' }).click();

    expect((await world.api.post(`/v1/sites/${world.siteId}/checkins/people`, visitor('Wendy', 'Hook'))).status).toBe(
      201,
    );
    await receiver.waitFor(1);
    await page.getByRole('button', { name: `Delivery log of ${receiver.url('/hook')}` }).click();
    const failed = rowOf(page, 'Person check-in entered');
    await expect
      .poll(async () => {
        await page.getByRole('button', { name: 'Refresh' }).click();
        return failed.innerText();
      })
      .toContain('Failed');
    expect(await failed.innerText()).toContain('HTTP 500');
    await checkSizes(page, 'webhooks-failed');
    await failed.getByRole('button', { name: /^Retry/ }).click();
    await receiver.waitFor(2);
    await expect
      .poll(async () => {
        await page.getByRole('button', { name: 'Refresh' }).click();
        return failed.innerText();
      })
      .toContain('Delivered');
    expect(await failed.innerText()).toContain('HTTP 200');
    expect(receiver.received.map((request) => request.id)).toEqual([
      receiver.received[0]?.id,
      receiver.received[0]?.id,
    ]);
  }, 60_000);

  it('the audit log lists those writes, and filters them', async () => {
    const page = ownerPage;
    await open(page, 'Audit log');
    const actions = [
      'user.created',
      'user.updated',
      'user.password_reset',
      'watchlist_entry.created',
      'watchlist_entry.updated',
      'watchlist_entry.deleted',
      'vehicle_label.created',
      'vehicle.created',
      'vehicle.updated',
      'vehicle.deleted',
      'webhook.created',
      'webhook.delivery_retried',
    ];
    const table = page.getByRole('table');
    await expect
      .poll(async () => {
        const text = await table.innerText().catch(() => '');
        return actions.filter((action) => !text.includes(action));
      })
      .toEqual([]);
    expect(await rowOf(page, 'watchlist_entry.created').innerText()).toContain(security.name);
    await checkSizes(page, 'audit');
    await page.getByLabel('Action').fill('vehicle.created');
    await page.getByRole('button', { name: 'Show' }).click();
    await expect.poll(() => page.getByRole('row').count()).toBe(2);
    expect(await rowOf(page, 'vehicle.created').innerText()).toContain(security.name);
  }, 60_000);

  it('Load more fetches the next keyset page of vehicles, then disappears', async () => {
    for (let index = 0; index < 55; index++) {
      expect(
        (await world.api.post('/v1/profiles/vehicles', { licensePlate: `PG${String(index).padStart(3, '0')}` })).status,
      ).toBe(201);
    }
    const page = ownerPage;
    await open(page, 'Vehicles');
    const rows = page.getByRole('table').getByRole('row');
    await expect.poll(() => rows.count()).toBe(51);
    await page.getByRole('button', { name: 'Load more' }).click();
    await expect.poll(() => rows.count()).toBe(56);
    expect(await page.getByRole('button', { name: 'Load more' }).count()).toBe(0);
    const plates = await page.getByRole('table').locator('th[scope="row"]').allInnerTexts();
    expect(new Set(plates).size).toBe(55);
  }, 60_000);

  it('a manager sees Vehicles, Watchlist and the Audit log of their sites, not Staff or Webhooks', async () => {
    await open(ownerPage, 'Staff');
    const link = await invite(ownerPage, { email: 'max.manager@example.com', name: 'Max Manager' }, 'manager');
    await dialog(ownerPage).getByRole('button', { name: 'Done' }).click();
    const { context, page } = await consolePage(browser, PHONE);
    await page.goto(link);
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Set password' }).click();
    await page.getByRole('button', { name: 'Sign out' }).waitFor();
    const nav = page.getByRole('navigation');
    for (const shown of ['Vehicles', 'Watchlist', 'Audit log']) await nav.getByRole('link', { name: shown }).waitFor();
    for (const hidden of ['Staff', 'Webhooks']) expect(await nav.getByRole('link', { name: hidden }).count()).toBe(0);
    await open(page, 'Audit log');
    // Account-wide writes (staff, watchlist, vehicles) are for those who see every site.
    await page.getByText('Nothing recorded for these filters.').waitFor();
    expect(await page.getByRole('alert').count()).toBe(0);
    expect(await noSidewaysScroll(page)).toBe(true);
    await context.close();
  }, 60_000);
});
