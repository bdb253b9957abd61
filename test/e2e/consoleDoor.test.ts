import type { Browser, BrowserContext, Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import type { PersonCheckin } from '../../shared/src/schemas/personCheckins';
import { defaultCheckinConfig } from '../../shared/src/schemas/sites';
import type { VehicleCheckin } from '../../shared/src/schemas/vehicles';
import { queryRows } from '../../server/src/db/query';
import { sql } from '../../server/src/db/sql';
import { browserAvailable } from '../support/browser';
import { DESK, consoleBrowserHooks, consoleScreenshot, signIn } from '../support/consoleWeb';
import { type World, buildToken, buildWorld, visitor } from '../support/factories';
import { apiClient } from '../support/http';
import { type StaffMember, buildStaffUser } from '../support/staff';
import type { TestServer } from '../support/testServer';

// Issue #30 in the console: times say their zone, Approvals counts and groups, a desk's own walk-in is
// decided, reception has History without export, On site now counts people as the kiosk's Roll call does,
// and the new alerts read in plain words.
const HOUR = 3_600_000;

describe.skipIf(!browserAvailable())('the console tells the truth at the door', () => {
  let server: TestServer;
  let browser: Browser;
  let world: World;
  let manager: StaffMember;
  let reception: StaffMember;
  let security: StaffMember;

  consoleBrowserHooks((started) => ({ server, browser } = started));
  beforeAll(async () => {
    world = await buildWorld(server);
    await queryRows(
      server.database,
      sql`UPDATE sites SET timezone = 'Europe/Berlin', name = 'Main lobby' WHERE id = ${world.siteId}`,
    );
    await queryRows(
      server.database,
      sql`UPDATE sites SET timezone = 'America/New_York', name = 'East door' WHERE id = ${world.otherSiteId}`,
    );
    const both = [world.siteId, world.otherSiteId];
    manager = await buildStaffUser(server, { accountId: world.accountId, role: 'manager', siteIds: both });
    reception = await buildStaffUser(server, {
      accountId: world.accountId,
      role: 'reception',
      siteIds: [world.siteId],
      name: 'Rita Reception',
    });
    security = await buildStaffUser(server, { accountId: world.accountId, role: 'security', siteIds: [world.siteId] });
  });

  /** A desk in Berlin: the browser's clock is the first site's. */
  async function desk(member: StaffMember): Promise<{ context: BrowserContext; page: Page }> {
    const context = await browser.newContext({ viewport: DESK, timezoneId: 'Europe/Berlin' });
    const page = await context.newPage();
    page.on('pageerror', (error) => console.error('console page error:', error.message));
    await signIn(page, server.baseUrl, member.email, member.password);
    return { context, page };
  }
  const nav = (page: Page) => page.getByRole('navigation');
  const open = (page: Page, name: RegExp) => nav(page).getByRole('link', { name }).click();
  const people = (siteId: number) => `/v1/sites/${siteId}/checkins/people`;
  const requireApproval = (siteId: number, requiresApproval: boolean) =>
    world.api.put(`${people(siteId)}/config`, { ...defaultCheckinConfig, requiresApproval });
  const checkIn = async (siteId: number, first: string, last: string, extra: Record<string, unknown> = {}) => {
    const created = await world.api.post<PersonCheckin>(people(siteId), visitor(first, last, extra));
    expect(created.status).toBe(201);
    return created.body;
  };

  it('times are on each site’s clock, with its zone where that is not the browser’s, and sorted by instant', async () => {
    // New York's visitor came first (two hours ago), Berlin's an hour ago: listed in that order, New York's time
    // on New York's clock with its zone, Berlin's (the browser's) without.
    await checkIn(world.otherSiteId, 'Nina', 'York', { occurredAt: new Date(Date.now() - 2 * HOUR).toISOString() });
    await checkIn(world.siteId, 'Bert', 'Berlin', { occurredAt: new Date(Date.now() - HOUR).toISOString() });
    const { context, page } = await desk(manager);
    const rows = page.getByRole('row').filter({ hasText: /Nina York|Bert Berlin/ });
    await expect.poll(() => rows.count(), { timeout: 5_000 }).toBe(2);
    const texts = await rows.allInnerTexts();
    expect(texts[0]).toContain('Nina York');
    expect(texts[1]).toContain('Bert Berlin');
    const since = (name: string) =>
      page.getByRole('row').filter({ hasText: name }).locator('td[data-label="Since"]').innerText();
    expect(await since('Nina York')).toMatch(/\d{2}:\d{2}( [AP]M)? E[SD]T$/);
    expect(await since('Bert Berlin')).toMatch(/\d{2}:\d{2}( [AP]M)?$/);
    await consoleScreenshot(page, 'console-times-with-zones');
    await context.close();
  }, 60_000);

  it('On site now counts people in, on a break and waiting (waiting apart), never stopped or left', async () => {
    const siteId = world.otherSiteId;
    const out = await checkIn(siteId, 'Olly', 'Out');
    await world.api.post(`${people(siteId)}/${out.checkinId}/checkout`);
    const onBreak = await checkIn(siteId, 'Bea', 'Break');
    await world.api.post(`${people(siteId)}/${onBreak.checkinId}/breaks/start`);
    await world.api.post('/v1/watchlist/people', { firstName: 'Mallory', lastName: 'Stopped', reason: 'Banned' });
    expect((await checkIn(siteId, 'Mallory', 'Stopped')).status).toBe('STOP');
    await requireApproval(siteId, true);
    expect((await checkIn(siteId, 'Wanda', 'Waiting')).status).toBe('PENDING');
    await requireApproval(siteId, false);
    const { context, page } = await desk(manager);
    await page.getByLabel('Site', { exact: true }).selectOption({ label: 'East door' });
    // Nina York (IN, from the test before), Bea (on a break) and Wanda (waiting); not Mallory, not Olly.
    await expect
      .poll(() => page.locator('.toolbar .count').innerText(), { timeout: 5_000 })
      .toBe('3 people on site (1 waiting)');
    expect(await page.getByRole('row').filter({ hasText: 'Mallory' }).count()).toBe(0);
    await context.close();
  }, 60_000);

  it('Approvals: the navigation counts what waits for you; people and vehicles in separate groups', async () => {
    const { siteId } = world;
    await requireApproval(siteId, true);
    const grace = await checkIn(siteId, 'Grace', 'Waiting');
    await requireApproval(siteId, false);
    const plate = await world.api.post<VehicleCheckin>(`/v1/sites/${siteId}/checkins/vehicles`, {
      licensePlate: 'AP 123',
    });
    expect([grace.status, plate.body.status]).toEqual(['PENDING', 'PENDING']);

    // Reception decides on people only: one waits for them.
    const rita = await desk(reception);
    await expect
      .poll(() => nav(rita.page).getByRole('link', { name: 'Approvals, 1 waiting' }).count(), { timeout: 5_000 })
      .toBe(1);
    expect(
      await nav(rita.page)
        .getByRole('link', { name: /^Approvals/ })
        .innerText(),
    ).toBe('Approvals 1');
    await open(rita.page, /^Approvals/);
    const peopleGroup = rita.page.getByRole('region', { name: 'People' });
    const vehicleGroup = rita.page.getByRole('region', { name: 'Vehicles' });
    await peopleGroup.getByRole('listitem').filter({ hasText: 'Grace Waiting' }).waitFor();
    await vehicleGroup.getByRole('listitem').filter({ hasText: 'AP 123' }).waitFor();
    expect(await peopleGroup.getByText('AP 123').count()).toBe(0);
    expect(await vehicleGroup.getByText('Grace Waiting').count()).toBe(0);
    expect(await vehicleGroup.getByRole('button').count()).toBe(0);
    await consoleScreenshot(rita.page, 'console-approvals-groups');
    await rita.context.close();

    // Security decides on both: two wait; approving the plate in Vehicles leaves the person waiting.
    const sam = await desk(security);
    await expect
      .poll(() => nav(sam.page).getByRole('link', { name: 'Approvals, 2 waiting' }).count(), { timeout: 5_000 })
      .toBe(1);
    await open(sam.page, /^Approvals/);
    const vehicles = sam.page.getByRole('region', { name: 'Vehicles' });
    await vehicles.getByRole('listitem').filter({ hasText: 'AP 123' }).getByRole('button', { name: 'Approve' }).click();
    await expect.poll(() => nav(sam.page).getByRole('link', { name: 'Approvals, 1 waiting' }).count()).toBe(1);
    expect((await world.api.get<PersonCheckin>(`${people(siteId)}/${grace.checkinId}`)).body.status).toBe('PENDING');
    await sam.page.getByRole('region', { name: 'People' }).getByRole('button', { name: 'Approve' }).click();
    await expect.poll(() => nav(sam.page).getByRole('link', { name: 'Approvals', exact: true }).count()).toBe(1);
    await sam.context.close();
  }, 60_000);

  it('a receptionist’s own walk-in at an approval site is decided by her: In at once', async () => {
    await requireApproval(world.siteId, true);
    const { context, page } = await desk(reception);
    await page.getByRole('button', { name: 'Check in a visitor' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByLabel('First name').fill('Hedy');
    await dialog.getByLabel('Last name').fill('Walkin');
    await dialog.getByRole('button', { name: 'Check in' }).click();
    const row = page.getByRole('row').filter({ hasText: 'Hedy Walkin' });
    await expect.poll(() => row.count()).toBe(1);
    expect(await row.locator('td[data-label="Status"]').innerText()).toBe('In');
    const found = await world.api.post<{ data: PersonCheckin[] }>('/v1/checkins/people/search', { q: 'Walkin' });
    expect(found.body.data[0]).toMatchObject({ status: 'IN', decidedBy: { type: 'user', name: 'Rita Reception' } });
    await requireApproval(world.siteId, false);
    await context.close();
  }, 60_000);

  it('reception looks up past visits in History, without Export CSV', async () => {
    const { context, page } = await desk(reception);
    await open(page, /^History$/);
    await page.getByRole('heading', { name: 'History' }).waitFor();
    await page.getByRole('button', { name: 'Search', exact: true }).click();
    await expect
      .poll(() => page.getByRole('row').filter({ hasText: 'Bert Berlin' }).count(), { timeout: 5_000 })
      .toBe(1);
    expect(await page.getByRole('link', { name: 'Export CSV' }).count()).toBe(0);
    expect(await page.getByText('Nina York').count()).toBe(0);
    await consoleScreenshot(page, 'console-history-reception');
    await context.close();
    // A manager keeps the export.
    const mona = await desk(manager);
    await open(mona.page, /^History$/);
    await mona.page.getByRole('button', { name: 'Search', exact: true }).click();
    await mona.page.getByRole('link', { name: 'Export CSV' }).waitFor();
    await mona.context.close();
  }, 60_000);

  it('Alerts say in plain words that a kiosk was refused and that a visitor used an older form', async () => {
    const { siteId } = world;
    const kiosk = await buildToken(server, {
      accountId: world.accountId,
      siteIds: [siteId],
      channel: 'KIOSK',
      mode: 'visitor',
      name: 'Lobby kiosk',
    });
    const eightDaysAgo = new Date(Date.now() - 8 * 24 * HOUR).toISOString();
    const refused = await apiClient(server.baseUrl, kiosk.token).post(
      people(siteId),
      visitor('Late', 'Kiosk', { occurredAt: eightDaysAgo }),
    );
    expect(refused.status).toBe(422);
    await world.api.put(`${people(siteId)}/config`, {
      requiresApproval: false,
      fields: [
        ...defaultCheckinConfig.fields.slice(0, 2),
        { name: 'company', label: 'Company', type: 'text', required: true },
      ],
    });
    const older = await checkIn(siteId, 'Olga', 'Older', { formVersion: 1 });
    expect(older.incompleteFields).toEqual(['company']);
    await world.api.put(`${people(siteId)}/config`, defaultCheckinConfig);

    const { context, page } = await desk(reception);
    await open(page, /^Alerts/);
    const kioskCard = page.getByRole('listitem').filter({ hasText: 'Kiosk: Lobby kiosk' });
    await expect.poll(() => kioskCard.innerText(), { timeout: 5_000 }).toContain('Check-in refused:');
    expect(await kioskCard.innerText()).toContain('Main lobby');
    const formCard = page.getByRole('listitem').filter({ hasText: 'Olga Older' });
    expect(await formCard.innerText()).toContain('Checked in with an older form: Company missing');
    await consoleScreenshot(page, 'console-alerts-new-kinds');
    await kioskCard.getByRole('button', { name: 'Acknowledge' }).click();
    await expect.poll(() => kioskCard.getByRole('button', { name: 'Acknowledge' }).count()).toBe(0);
    await context.close();
  }, 60_000);
});
