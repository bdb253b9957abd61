import fs from 'node:fs/promises';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { addDays, siteDate, startOfSiteDay } from '../../shared/src/domain/siteDay';
import type { PersonCheckin } from '../../shared/src/schemas/personCheckins';
import { queryRows } from '../../server/src/db/query';
import { sql } from '../../server/src/db/sql';
import { parseCsv } from '../support/csv';
import { browserAvailable } from '../support/browser';
import {
  DESK,
  PHONE,
  consoleBrowserHooks,
  consolePage,
  consoleScreenshot,
  fitsWidth,
  signIn,
} from '../support/consoleWeb';
import { type World, buildWorld, visitor } from '../support/factories';
import { screenshotDir } from '../support/kioskWeb';
import { buildStaffUser } from '../support/staff';
import { arrive, visit as vehicleVisit } from '../support/vehicles';
import type { TestServer } from '../support/testServer';

// Site 1 keeps New York time, so "yesterday" there is not the browser's or UTC's day.
const ZONE = 'America/New_York';
const HOUR = 3_600_000;
const BULK = 52;

describe.skipIf(!browserAvailable())('the console History in a real browser', () => {
  let server: TestServer;
  let browser: Browser;
  let world: World;
  let manager: { email: string; password: string };
  const yesterday = siteDate(new Date(Date.now() - 24 * HOUR), ZONE);
  const start = startOfSiteDay(yesterday, ZONE).getTime();
  const at = (hours: number) => new Date(start + hours * HOUR).toISOString();

  consoleBrowserHooks((started) => ({ server, browser } = started));

  /** A visit at a site, entered (and maybe left) at the given instants. */
  async function visit(
    siteId: number,
    first: string,
    last: string,
    entryAt: string,
    exitAt?: string,
    extra: Record<string, unknown> = {},
  ) {
    const people = `/v1/sites/${siteId}/checkins/people`;
    const created = await world.api.post<PersonCheckin>(people, visitor(first, last, extra));
    expect(created.status).toBe(201);
    if (exitAt) expect((await world.api.post(`${people}/${created.body.checkinId}/checkout`)).status).toBe(200);
    await queryRows(
      server.database,
      sql`UPDATE person_checkins SET entry_at = ${entryAt}::timestamptz,
      exit_at = coalesce(${exitAt ?? null}::timestamptz, exit_at) WHERE id = ${created.body.checkinId}`,
    );
  }

  beforeAll(async () => {
    world = await buildWorld(server);
    await queryRows(
      server.database,
      sql`UPDATE sites SET timezone = ${ZONE}, name = 'Main lobby' WHERE id = ${world.siteId}`,
    );
    await queryRows(
      server.database,
      sql`UPDATE sites SET timezone = 'Europe/Berlin', name = 'North gate' WHERE id = ${world.otherSiteId}`,
    );
    await visit(world.siteId, 'Ada', 'Overnight', at(-3), at(2), {
      person: { firstName: 'Ada', lastName: 'Overnight', company: 'Engines, "Analytical" Ltd' },
      hostName: 'Charles',
    });
    await visit(world.siteId, 'Bea', 'Inside', at(9), at(10));
    await visit(world.siteId, 'Cy', 'Stillhere', at(20));
    await visit(world.siteId, 'Dot', 'Otherday', at(-30), at(-28));
    await visit(world.otherSiteId, 'Eli', 'Othersite', at(11), at(12));
    // Enough for a second page: they entered yesterday between 04:00 and 05:00 and left an hour later.
    await queryRows(
      server.database,
      sql`
      INSERT INTO person_checkins (account_id, site_id, status, first_name, last_name, entry_source, entry_at, exit_source, exit_at,
        last_event_at, created_at, updated_at)
      SELECT ${world.accountId}, ${world.siteId}, 'OUT', 'Bulk', 'Visitor ' || g, 'KIOSK', ${at(4)}::timestamptz + g * interval '1 minute',
        'KIOSK', ${at(5)}::timestamptz + g * interval '1 minute', now(), now(), now()
      FROM generate_series(1, ${BULK}) AS g`,
    );
    const car = async (plate: string, driverName: string, entryAt: string, exitAt?: string) => {
      const arrived = await arrive(world.api, world.siteId, { licensePlate: plate, driverName });
      if (exitAt) expect((await world.api.post(`${vehicleVisit(arrived)}/checkout`)).status).toBeLessThan(300);
      await queryRows(
        server.database,
        sql`UPDATE vehicle_checkins SET entry_at = ${entryAt}::timestamptz,
        exit_at = coalesce(${exitAt ?? null}::timestamptz, exit_at) WHERE id = ${arrived.checkinId}`,
      );
    };
    await car('HX 100', 'Dana Driver', at(-2), at(3));
    await car('HX 200', 'Ed Early', at(15));
    await car('HX 300', 'Flo Former', at(-40), at(-39));
    manager = await buildStaffUser(server, {
      accountId: world.accountId,
      role: 'manager',
      siteIds: [world.siteId, world.otherSiteId],
    });
  });

  const names = async (page: Page) => page.locator('table.history tbody th[scope="row"]').allInnerTexts();
  const search = async (page: Page, site: string, day: string, text = '') => {
    await page.getByLabel('Site', { exact: true }).selectOption({ label: site });
    await page.getByLabel('From', { exact: true }).fill(day);
    await page.getByLabel('To', { exact: true }).fill(day);
    await page.getByRole('searchbox', { name: 'Search' }).fill(text);
    await page.getByRole('button', { name: 'Search', exact: true }).click();
  };
  const exported = async (page: Page): Promise<Array<Record<string, string>>> => {
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('link', { name: 'Export CSV' }).click(),
    ]);
    const text = await fs.readFile(await download.path(), 'utf8');
    expect(text.startsWith('\uFEFF')).toBe(true);
    const [header = [], ...records] = parseCsv(text.slice(1));
    return records.map((record) => Object.fromEntries(header.map((name, index) => [name, record[index] ?? ''])));
  };

  it('a manager lists yesterday at site 1 in its time zone, loads more, and downloads exactly that list', async () => {
    const { context, page } = await consolePage(browser, DESK);
    await signIn(page, server.baseUrl, manager.email, manager.password);
    await page.getByRole('navigation').getByRole('link', { name: 'History', exact: true }).click();
    await page.getByRole('heading', { name: 'History' }).waitFor();
    // Sites in two zones: the first is chosen, and the dates start as today there.
    await expect.poll(() => page.getByLabel('From', { exact: true }).inputValue()).toBe(siteDate(new Date(), ZONE));
    expect(await page.getByLabel('Site', { exact: true }).locator('option:checked').innerText()).toBe('Main lobby');

    await search(page, 'Main lobby', yesterday);
    await expect.poll(() => page.getByText(`${50} visits so far`).count()).toBe(1);
    await page.getByRole('button', { name: 'Load more' }).click();
    await expect.poll(() => names(page)).toHaveLength(BULK + 3);
    expect(await page.getByRole('button', { name: 'Load more' }).count()).toBe(0);
    const listed = await names(page);
    expect(listed.slice(0, 2)).toEqual(['Cy Stillhere', 'Bea Inside']);
    expect(listed.at(-1)).toBe('Ada Overnight');
    expect(listed).not.toContain('Dot Otherday');
    expect(listed).not.toContain('Eli Othersite');
    // Times as the site's clock showed them: Ada came at 21:00 the day before and left at 02:00.
    const ada = page.getByRole('row').filter({ hasText: 'Ada Overnight' });
    expect(await ada.innerText()).toMatch(
      /Engines, "Analytical" Ltd[\s\S]*Charles[\s\S]*Left[\s\S]*(09:00 PM|21:00)[\s\S]*(02:00 AM|02:00)/,
    );
    expect(await page.getByRole('row').filter({ hasText: 'Cy Stillhere' }).innerText()).toContain('Still on site');
    expect(await fitsWidth(page)).toBe(true);
    await consoleScreenshot(page, 'console-history-desk');

    const rows = await exported(page);
    expect(rows.map((row) => `${row.firstName} ${row.lastName}`).sort()).toEqual([...listed].sort());
    expect(rows.find((row) => row.lastName === 'Overnight')).toMatchObject({
      company: 'Engines, "Analytical" Ltd',
      site: 'Main lobby',
    });

    // The text search narrows both the list and the file.
    await search(page, 'Main lobby', yesterday, 'bea');
    await expect.poll(() => names(page)).toEqual(['Bea Inside']);
    expect((await exported(page)).map((row) => row.firstName)).toEqual(['Bea']);

    // Vehicles: the same days, then one plate however it is typed.
    await page.getByLabel('Show', { exact: true }).selectOption({ label: 'Vehicles' });
    await search(page, 'Main lobby', yesterday);
    await expect.poll(() => names(page)).toEqual(['HX 200', 'HX 100']);
    expect(await page.getByRole('row').filter({ hasText: 'HX 100' }).innerText()).toMatch(/Dana Driver[\s\S]*Left/);
    await consoleScreenshot(page, 'console-history-vehicles-desk');
    const cars = await exported(page);
    expect(cars.map((row) => row.licensePlate).sort()).toEqual(['HX 100', 'HX 200']);
    await search(page, 'Main lobby', yesterday, 'hx-100');
    await expect.poll(() => names(page)).toEqual(['HX 100']);
    expect((await exported(page)).map((row) => row.driver)).toEqual(['Dana Driver']);
    await page.getByLabel('Show', { exact: true }).selectOption({ label: 'People' });

    // The day before, at the other site: only what overlaps it there.
    await search(page, 'North gate', yesterday);
    await expect.poll(() => names(page)).toEqual(['Eli Othersite']);
    await context.close();
  }, 90_000);

  it('reception has History of their sites, without Export CSV (docs/running-a-site.md, Roles)', async () => {
    const reception = await buildStaffUser(server, {
      accountId: world.accountId,
      role: 'reception',
      siteIds: [world.siteId],
    });
    const { context, page } = await consolePage(browser, DESK);
    await signIn(page, server.baseUrl, reception.email, reception.password);
    await page.getByRole('navigation').getByRole('link', { name: 'History', exact: true }).click();
    // Yesterday at Main lobby, their only site (no Site choice): the visits are there, the export is not.
    await page.getByLabel('From', { exact: true }).fill(yesterday);
    await page.getByLabel('To', { exact: true }).fill(yesterday);
    await page.getByRole('button', { name: 'Search', exact: true }).click();
    await expect.poll(() => names(page)).toContain('Bea Inside');
    expect(await names(page)).not.toContain('Eli Othersite');
    expect(await page.getByRole('link', { name: 'Export CSV' }).count()).toBe(0);
    await context.close();
  }, 60_000);

  it('says in plain words what is wrong, and fits a phone', async () => {
    const { context, page } = await consolePage(browser, PHONE);
    await signIn(page, server.baseUrl, manager.email, manager.password);
    await page.getByRole('navigation').getByRole('link', { name: 'History', exact: true }).click();
    await page.getByLabel('Site', { exact: true }).selectOption({ label: 'Main lobby' });
    await page.getByLabel('From', { exact: true }).fill(yesterday);
    await page.getByLabel('To', { exact: true }).fill(addDays(yesterday, -1));
    await page.getByRole('button', { name: 'Search', exact: true }).click();
    await expect.poll(() => page.getByRole('alert').innerText()).toBe('The To date is before the From date.');
    await page.getByLabel('Site', { exact: true }).selectOption({ label: 'All sites' });
    await page.getByLabel('To', { exact: true }).fill(yesterday);
    await page.getByRole('button', { name: 'Search', exact: true }).click();
    await expect.poll(() => page.getByRole('alert').innerText()).toContain('different time zones');

    await search(page, 'Main lobby', yesterday);
    await expect.poll(() => names(page)).toHaveLength(50);
    await page.getByRole('button', { name: 'Load more' }).click();
    await expect.poll(() => names(page)).toHaveLength(BULK + 3);
    expect(await fitsWidth(page)).toBe(true);
    await page.evaluate(() => window.scrollTo(0, 0));
    await page.screenshot({ path: path.join(screenshotDir, 'console-history-phone.png'), animations: 'disabled' });
    await page.getByRole('row').filter({ hasText: 'Ada Overnight' }).scrollIntoViewIfNeeded();
    await page.screenshot({ path: path.join(screenshotDir, 'console-history-phone-row.png'), animations: 'disabled' });
    await context.close();
  }, 90_000);
});
