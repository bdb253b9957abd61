import type { Browser } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Invitation } from '../../shared/src/schemas/invitations';
import type { Site } from '../../shared/src/schemas/sites';
import { browserAvailable } from '../support/browser';
import { consoleBrowserHooks, consolePage, consoleScreenshot, signIn } from '../support/consoleWeb';
import { type World, buildWorld, visitor } from '../support/factories';
import { invite, passOf } from '../support/invitations';
import { type StaffMember, buildStaffUser } from '../support/staff';
import type { TestServer } from '../support/testServer';

// Issue #34 (CONTRACT §21): reception's Expected page lists the day's invitations of their sites by site,
// says who has arrived, invites a visitor, and cancels an invitation; another site's stay out of it.
describe.skipIf(!browserAvailable())('the console’s Expected page', () => {
  let server: TestServer;
  let browser: Browser;
  let world: World;
  let reception: StaffMember;
  let site: Site;

  consoleBrowserHooks((started) => ({ server, browser } = started));
  beforeAll(async () => {
    world = await buildWorld(server);
    reception = await buildStaffUser(server, {
      accountId: world.accountId,
      role: 'reception',
      siteIds: [world.siteId],
      name: 'Rita Reception',
    });
    site = (await world.api.get<Site>(`/v1/sites/${world.siteId}`)).body;
  });

  it('lists the day’s visitors by site, arrived or not; invites one; cancels one', async () => {
    const ada = await invite(world.api, world.siteId);
    await invite(world.api, world.otherSiteId, { person: { firstName: 'Otto', lastName: 'Elsewhere' } });
    const { context, page } = await consolePage(browser);
    await signIn(page, server.baseUrl, reception.email, reception.password);
    await page.getByRole('navigation').getByRole('link', { name: 'Expected' }).click();
    await page.getByRole('heading', { name: 'Expected', level: 1 }).waitFor();
    const ownSite = page.getByRole('region', { name: site.name });
    const row = (name: string) => ownSite.getByRole('row').filter({ hasText: name });
    await expect.poll(() => row('Ada Lovelace').innerText()).toContain('Not arrived yet');
    expect(await page.getByText('Otto Elsewhere').count()).toBe(0);

    await page.getByRole('button', { name: 'Invite a visitor' }).click();
    const dialog = page.getByRole('dialog', { name: 'Invite a visitor' });
    await dialog.getByLabel('First name').fill('Grace');
    await dialog.getByLabel('Last name').fill('Hopper');
    await dialog.getByLabel('Expected at').fill('10:30');
    await dialog.getByLabel('Email language').selectOption('de');
    await dialog.getByRole('button', { name: 'Invite' }).click();
    await expect.poll(() => row('Grace Hopper').innerText()).toContain('10:30');
    const listed = await world.api.get<{ data: Invitation[] }>(`/v1/invitations?siteIds=${world.siteId}`);
    const grace = listed.body.data.find((item) => item.person.firstName === 'Grace');
    expect([grace?.status, grace?.createdBy.name, grace?.language]).toEqual(['expected', 'Rita Reception', 'de']);

    // Ada arrives with her pass: the page says so (it follows the event stream).
    const { token } = await passOf(world.api, ada.invitationId);
    const arrived = await world.api.post(`/v1/sites/${world.siteId}/checkins/people`, { ...visitor(), pass: token });
    expect(arrived.status, arrived.text).toBe(201);
    await expect.poll(() => row('Ada Lovelace').innerText(), { timeout: 20_000 }).toMatch(/Arrived \d\d:\d\d/);
    expect(await row('Ada Lovelace').getByRole('button', { name: 'Cancel' }).count()).toBe(0);
    await consoleScreenshot(page, 'console-expected');

    await row('Grace Hopper').getByRole('button', { name: 'Cancel' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Cancel the invitation' }).click();
    await expect.poll(() => row('Grace Hopper').innerText()).toContain('Cancelled');
    expect((await world.api.get<Invitation>(`/v1/invitations/${grace?.invitationId}`)).body.status).toBe('cancelled');
    await context.close();
  }, 90_000);
});
