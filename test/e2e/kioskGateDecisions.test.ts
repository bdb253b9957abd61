import type { Browser, Locator, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { queryRows } from '../../server/src/db/query';
import { sql } from '../../server/src/db/sql';
import type { VehicleCheckin } from '../../shared/src/schemas/vehicles';
import { normalizePlate } from '../../shared/src/domain';
import { browserAvailable } from '../support/browser';
import { type KioskTestSite, kioskSite } from '../support/factories';
import {
  type KioskWeb,
  kioskBrowserHooks,
  newestResult,
  onSiteList,
  openGatePage,
  outboxCount,
  plateInput,
  scan,
  screenshot,
  storeCount,
} from '../support/kioskWeb';
import type { TestServer } from '../support/testServer';

type Site = KioskTestSite;

describe.skipIf(!browserAvailable())(
  'kiosk gate in a real browser: the guard admits and refuses, STOP says why',
  () => {
    let server: TestServer;
    let browser: Browser;
    let web: KioskWeb;

    kioskBrowserHooks((started) => ({ server, browser, web } = started));
    const newSite = () => kioskSite(server, 'North gate', 'gate');
    const openGate = (site: Site) => openGatePage({ server, browser, web }, site);

    const serverVisits = async (site: Site) =>
      (await site.api.post<{ data: VehicleCheckin[] }>('/v1/checkins/vehicles/search', { siteIds: [site.siteId] })).body
        .data;
    /** The webhook events the server queued for one visit, oldest first: one per change it made. */
    const eventsOf = async (checkinId: number) =>
      (
        await queryRows<{ type: string }>(
          server.database,
          sql`SELECT type FROM outbox_events WHERE payload->'data'->'checkin'->>'checkinId' = ${String(checkinId)} ORDER BY id`,
        )
      ).map((row) => row.type);
    const blockingLabel = async (site: Site, name: string, plate: string) => {
      const label = await site.api.post<{ labelId: number }>('/v1/labels/vehicles', { name, blocksEntry: true });
      expect(label.status).toBe(201);
      expect(
        (await site.api.post('/v1/profiles/vehicles', { licensePlate: plate, labelIds: [label.body.labelId] })).status,
      ).toBe(201);
    };
    const statusBar = (page: Page) => page.getByRole('status');
    /** The kiosk's copy of the registered vehicles holds `vehicles` of them (and `labels` labels). */
    const copyHolds = async (page: Page, vehicles: number, labels = 0) => {
      await expect.poll(() => storeCount(page, 'knownVehicles'), { timeout: 15_000 }).toBe(vehicles);
      await expect.poll(() => storeCount(page, 'vehicleLabels'), { timeout: 15_000 }).toBe(labels);
    };
    /** The outbox is empty (read from IndexedDB, which holds an action before its card shows) and the status bar says so. */
    const allSynced = async (page: Page) => {
      await expect.poll(() => outboxCount(page), { timeout: 15_000 }).toBe(0);
      await expect.poll(() => statusBar(page).textContent(), { timeout: 15_000 }).toMatch(/Online.*All synced/);
    };
    const onSiteRow = (page: Page, plate: string) =>
      page
        .getByRole('region', { name: /On site now/ })
        .getByRole('listitem')
        .filter({ hasText: normalizePlate(plate) });
    const refuseWith = async (page: Page, from: Locator, reason: string) => {
      await from.getByRole('button', { name: 'Refuse', exact: true }).click();
      const dialog = page.getByRole('dialog');
      await dialog.getByLabel('Reason').fill(reason);
      await dialog.getByRole('button', { name: 'Refuse', exact: true }).click();
      await dialog.waitFor({ state: 'detached' });
    };
    /** Nothing on the page is wider than the window (no horizontal scrolling). */
    const fitsWidth = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth);

    it('an unknown plate is admitted on its card: the server has it IN, approved once; the header names the site', async () => {
      const site = await newSite();
      const { context, page } = await openGate(site);
      await expect.poll(() => page.getByRole('banner').innerText()).toContain('North gate');

      await page.getByLabel('Driver name').fill('Kim Lee');
      await plateInput(page).fill('UN 101');
      await page.getByRole('button', { name: 'Entry', exact: true }).click();
      await expect.poll(() => newestResult(page).innerText()).toMatch(/UN101\s+PENDING/);
      expect(await newestResult(page).innerText()).toContain('Driver: Kim Lee');
      expect(await page.getByLabel('Driver name').inputValue()).toBe('');
      await screenshot(page, 'kiosk-gate-pending');
      await newestResult(page).getByRole('button', { name: 'Admit', exact: true }).click();
      await expect.poll(() => newestResult(page).innerText()).toMatch(/UN101\s+IN/);
      expect(await newestResult(page).getByRole('button', { name: 'Admit', exact: true }).count()).toBe(0);
      await allSynced(page);

      const [visit] = await serverVisits(site);
      expect(visit).toMatchObject({ licensePlate: 'UN 101', status: 'IN', driverName: 'Kim Lee' });
      expect(await eventsOf(visit?.checkinId ?? 0)).toEqual(['VEHICLE_CHECKIN_PENDING', 'VEHICLE_CHECKIN_ENTERED']);

      // With a scanner: the driver's name first, Enter takes the guard back to the plate input, the scan records the Entry.
      await page.getByLabel('Driver name').fill('Sam');
      await page.getByLabel('Driver name').press('Enter');
      expect(await plateInput(page).evaluate((input) => input === document.activeElement)).toBe(true);
      await scan(page, 'SC 102');
      await expect.poll(() => newestResult(page).innerText()).toMatch(/SC102\s+PENDING[\s\S]*Driver: Sam/);
      // The next scan is another vehicle: no driver's name.
      await scan(page, 'SC 103');
      await expect.poll(() => newestResult(page).innerText()).toMatch(/SC103\s+PENDING/);
      expect(await newestResult(page).innerText()).not.toContain('Driver');
      await context.close();
    }, 40_000);

    it('a plate refused from the on-site list with a reason is STOP with that reason, on screen and on the server, and leaves the list', async () => {
      const site = await newSite();
      const { context, page } = await openGate(site);
      await scan(page, 'RF 202');
      await expect.poll(() => onSiteList(page)).toEqual(['RF202']);
      await refuseWith(page, onSiteRow(page, 'RF 202'), 'No delivery booked');
      await expect.poll(() => newestResult(page).innerText()).toMatch(/RF202\s+STOP[\s\S]*No delivery booked/);
      // A STOP is not on site.
      await expect.poll(() => onSiteList(page)).toEqual([]);
      await allSynced(page);
      const [visit] = await serverVisits(site);
      expect(visit).toMatchObject({ status: 'STOP', stopReason: 'No delivery booked' });
      expect(await eventsOf(visit?.checkinId ?? 0)).toEqual(['VEHICLE_CHECKIN_PENDING', 'VEHICLE_CHECKIN_STOPPED']);

      // An OUT visit leaves the list too.
      await scan(page, 'OU 303');
      await expect.poll(() => onSiteList(page)).toEqual(['OU303']);
      await plateInput(page).fill('OU 303');
      await page.getByRole('button', { name: 'Exit', exact: true }).click();
      await expect.poll(() => newestResult(page).innerText()).toMatch(/OU303\s+OUT/);
      await expect.poll(() => onSiteList(page)).toEqual([]);
      await allSynced(page);
      await page.reload();
      await page.getByRole('status').getByText('Online').waitFor();
      await page.waitForTimeout(500);
      expect(await onSiteList(page)).toEqual([]);
      await context.close();
    }, 40_000);

    it("a plate with a blocking label is STOP with the label's name, online and offline", async () => {
      const site = await newSite();
      await blockingLabel(site, 'Banned', 'BL 404');
      const { context, page } = await openGate(site);
      await scan(page, 'BL 404');
      await expect
        .poll(() => newestResult(page).innerText(), { timeout: 15_000 })
        .toMatch(/BL404\s+STOP[\s\S]*Blocked by label: Banned/);
      await allSynced(page);
      const [visit] = await serverVisits(site);
      expect(visit).toMatchObject({ status: 'STOP', stopReason: 'Blocked by label: Banned' });
      await screenshot(page, 'kiosk-gate-stop');

      // Offline, from the kiosk's own copy of the vehicles: known at once, before any server answer.
      await copyHolds(page, 1, 1);
      await context.setOffline(true);
      await expect.poll(() => statusBar(page).textContent()).toContain('Offline');
      await plateInput(page).fill('BL 404');
      await page.getByRole('button', { name: 'Exit', exact: true }).click();
      await expect.poll(() => newestResult(page).innerText()).toMatch(/BL404\s+OUT/);
      await scan(page, 'bl-404');
      await expect.poll(() => newestResult(page).innerText()).toMatch(/BL404\s+STOP[\s\S]*Blocked by label: Banned/);
      expect(await newestResult(page).innerText()).not.toContain('The server decided');
      await context.close();
    }, 40_000);

    it('offline, a registered plate is IN and an unknown one PENDING; the guard admits it offline; online, the server has one visit, approved once', async () => {
      const site = await newSite();
      expect((await site.api.post('/v1/profiles/vehicles', { licensePlate: 'RG 505' })).status).toBe(201);
      const { context, page } = await openGate(site);
      // The kiosk's copy of the vehicles is pulled while online.
      await copyHolds(page, 1);
      await context.setOffline(true);
      await expect.poll(() => statusBar(page).textContent()).toContain('Offline');

      await scan(page, 'RG 505');
      await expect.poll(() => newestResult(page).innerText()).toMatch(/RG505\s+IN/);
      await scan(page, 'UK 606');
      await expect.poll(() => newestResult(page).innerText()).toMatch(/UK606\s+PENDING/);
      await newestResult(page).getByRole('button', { name: 'Admit', exact: true }).click();
      await expect.poll(() => newestResult(page).innerText()).toMatch(/UK606\s+IN/);
      expect(await outboxCount(page)).toBe(3);
      expect(await serverVisits(site)).toEqual([]);

      await context.setOffline(false);
      await allSynced(page);
      const visits = await serverVisits(site);
      expect(visits.map((visit) => `${visit.licensePlate} ${visit.status}`).sort()).toEqual(['RG 505 IN', 'UK 606 IN']);
      const unknown = visits.find((visit) => visit.licensePlate === 'UK 606');
      expect(await eventsOf(unknown?.checkinId ?? 0)).toEqual(['VEHICLE_CHECKIN_PENDING', 'VEHICLE_CHECKIN_ENTERED']);
      // The server agreed with both predictions: nothing to tell.
      expect(await page.getByLabel('Result').innerText()).not.toContain('The server decided');
      await context.close();
    }, 40_000);

    it('when the server decides otherwise than the gate predicted offline, the card says so', async () => {
      const site = await newSite();
      const { context, page } = await openGate(site);
      await allSynced(page);
      await context.setOffline(true);
      await expect.poll(() => statusBar(page).textContent()).toContain('Offline');
      await scan(page, 'LT 707');
      await expect.poll(() => newestResult(page).innerText()).toMatch(/LT707\s+PENDING/);
      // Blocked meanwhile, where the kiosk cannot see it.
      await blockingLabel(site, 'Stolen', 'LT 707');
      await context.setOffline(false);
      await expect
        .poll(() => newestResult(page).innerText(), { timeout: 15_000 })
        .toMatch(/LT707\s+STOP[\s\S]*The server decided: STOP — Blocked by label: Stolen/);
      await screenshot(page, 'kiosk-gate-overruled');
      await context.close();
    }, 40_000);

    it('at 390×844 (and 360×640) nothing scrolls sideways; choosing a plate shows its last visits at this site', async () => {
      const site = await newSite();
      await site.api.post(`/v1/sites/${site.siteId}/checkins/vehicles`, { licensePlate: 'HI 808', driverName: 'Ann' });
      const earlier = (await serverVisits(site))[0];
      await site.api.post(`/v1/sites/${site.siteId}/checkins/vehicles/${earlier?.checkinId}/deny`, {
        reason: 'No pass',
      });
      const { context, page } = await openGate(site);
      await page.setViewportSize({ width: 390, height: 844 });
      await page.getByLabel('Driver name').fill('Bo');
      await plateInput(page).fill('HI 808');
      await page.getByRole('button', { name: 'Entry', exact: true }).click();
      await expect.poll(() => newestResult(page).innerText()).toMatch(/HI808\s+PENDING/);
      await scan(page, 'ABCDEFGHJKLMNPQR');
      await expect.poll(() => onSiteList(page)).toEqual(['ABCDEFGHJKLMNPQR', 'HI808']);
      expect(await fitsWidth(page)).toBe(true);
      await screenshot(page, 'kiosk-gate-phone');
      await page.getByRole('heading', { name: /On site now/ }).scrollIntoViewIfNeeded();
      await screenshot(page, 'kiosk-gate-phone-on-site');

      await onSiteRow(page, 'HI808').getByRole('button', { name: 'HI808' }).click();
      const history = page.getByRole('region', { name: /Visits of/ });
      await expect.poll(() => history.getByRole('listitem').count()).toBe(2);
      const lines = await history.getByRole('listitem').allInnerTexts();
      expect(lines[0]).toMatch(/PENDING[\s\S]*Driver: Bo/);
      expect(lines[1]).toMatch(/STOP[\s\S]*Driver: Ann[\s\S]*No pass/);
      expect(await fitsWidth(page)).toBe(true);
      await screenshot(page, 'kiosk-gate-phone-history');

      // The newest card (the long plate) is refused with a long reason: the dialog and the card fit too.
      await newestResult(page).getByRole('button', { name: 'Refuse', exact: true }).click();
      const dialog = page.getByRole('dialog');
      await dialog.getByLabel('Reason').fill('A reason long enough to need more than one line on a phone screen');
      expect(await fitsWidth(page)).toBe(true);
      await screenshot(page, 'kiosk-gate-phone-refuse');
      await dialog.getByRole('button', { name: 'Refuse', exact: true }).click();
      await expect
        .poll(() => newestResult(page).innerText())
        .toMatch(/ABCDEFGHJKLMNPQR\s+STOP[\s\S]*more than one line/);
      expect(await fitsWidth(page)).toBe(true);
      await screenshot(page, 'kiosk-gate-phone-stop');
      // The smallest phone the kiosk is made for, too.
      await page.setViewportSize({ width: 360, height: 640 });
      expect(await fitsWidth(page)).toBe(true);
      await screenshot(page, 'kiosk-gate-phone-360');
      await context.close();
    }, 40_000);
  },
);
