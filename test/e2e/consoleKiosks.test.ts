import fs from 'node:fs';
import type { Browser, Page, Request } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { pairingQr } from '../../console/kiosks/pairingQr';
import { pairingLink } from '../../shared/src/schemas/kiosks';
import type { PersonCheckin } from '../../shared/src/schemas/personCheckins';
import { browserAvailable } from '../support/browser';
import { consoleAndKioskHooks } from '../support/consoleKiosk';
import { DESK, PHONE, consolePage, consoleScreenshot, noSidewaysScroll, signIn, rowNamed } from '../support/consoleWeb';
import { type World, buildWorld } from '../support/factories';
import type { KioskWeb } from '../support/kioskBuild';
import { checkInThroughForm, kioskContext, outboxCount, screenshot } from '../support/kioskWeb';
import { type StaffMember, buildStaffUser } from '../support/staff';
import type { TestServer } from '../support/testServer';

const { version } = JSON.parse(fs.readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as {
  version: string;
};
const REVOKED = 'This kiosk was revoked. Ask a manager to pair it again.';
/** A pairing code as the console shows it: two groups of four from the unambiguous alphabet. */
const CODE = /^[2-9A-HJ-NP-Z]{4} [2-9A-HJ-NP-Z]{4}$/;

describe.skipIf(!browserAvailable())('kiosks added in the console and paired with a code', () => {
  let server: TestServer;
  let browser: Browser;
  let web: KioskWeb;
  let world: World;
  let manager: StaffMember;

  consoleAndKioskHooks((started) => ({ server, browser, web } = started));
  beforeAll(async () => {
    world = await buildWorld(server);
    manager = await buildStaffUser(server, {
      accountId: world.accountId,
      role: 'manager',
      siteIds: [world.siteId],
      name: 'Max Manager',
    });
  });

  const cell = async (page: Page, row: string, column: string) => {
    // After a reload the table may not be there yet: wait for its column, never read a cell by index -1.
    await page.getByRole('columnheader', { name: column, exact: true }).waitFor();
    const headers = await page.getByRole('columnheader').allInnerTexts();
    const index = headers.findIndex((header) => header.trim().toLowerCase() === column.toLowerCase());
    if (index < 1) throw new Error(`no column ${column} in ${headers.join(', ')}`);
    return rowNamed(page, row)
      .getByRole('cell')
      .nth(index - 1)
      .innerText();
  };
  const checkinPosts = (requests: Request[]) =>
    requests.filter(
      (request) => request.method() === 'POST' && /\/checkins\/people$/.test(new URL(request.url()).pathname),
    ).length;

  it('a manager adds a kiosk; a fresh kiosk pairs with the code alone and checks a visitor in; revoked, it stops syncing and says so', async () => {
    const { context, page } = await consolePage(browser);
    await signIn(page, server.baseUrl, manager.email, manager.password);
    await page.getByRole('navigation').getByRole('link', { name: 'Kiosks', exact: true }).click();
    await page.getByText('No kiosks yet').waitFor();
    await page.getByRole('button', { name: 'Add a kiosk' }).click();
    const dialog = page.getByRole('dialog');
    expect(await dialog.getByLabel('Site').locator('option').count()).toBe(1);
    await dialog.getByLabel('Mode').selectOption('visitor');
    await dialog.getByLabel('Name').fill('Lobby tablet');
    await dialog.getByRole('button', { name: 'Add' }).click();
    const shown = dialog.getByText(CODE);
    await shown.waitFor();
    const code = (await shown.innerText()).replace(' ', '');
    // The QR says this server's address and the code, as the kiosk's scanner field reads it.
    const qr = dialog.getByRole('img', { name: 'Pairing QR code' });
    await expect.poll(() => qr.getAttribute('src')).toBe(await pairingQr(server.baseUrl, code));
    expect(await qr.evaluate((image: HTMLImageElement) => image.complete && image.naturalWidth > 0)).toBe(true);
    expect(await noSidewaysScroll(page)).toBe(true);
    await consoleScreenshot(page, 'console-kiosk-code-desk');
    await page.setViewportSize(PHONE);
    expect(await noSidewaysScroll(page)).toBe(true);
    await consoleScreenshot(page, 'console-kiosk-code-phone');
    await page.setViewportSize(DESK);
    await dialog.getByRole('button', { name: 'Done' }).click();
    await expect.poll(() => cell(page, 'Lobby tablet', 'Last seen')).toBe('Not paired yet');

    // A fresh kiosk page: the server address and the code, no token.
    const kioskCtx = await kioskContext(browser);
    await kioskCtx.clock.install();
    const kiosk = await kioskCtx.newPage();
    const requests: Request[] = [];
    kiosk.on('request', (request) => requests.push(request));
    await kiosk.goto(`${web.url}?${new URLSearchParams({ server: server.baseUrl })}`);
    await kiosk.getByLabel('Pairing code').fill('ABCD 2345');
    await kiosk.getByRole('button', { name: 'Pair', exact: true }).click();
    await kiosk.getByRole('alert').filter({ hasText: 'This pairing code is wrong, used or expired.' }).waitFor();
    await kiosk.getByLabel('Pairing code').fill(code.toLowerCase());
    await screenshot(kiosk, 'kiosk-pair-with-code');
    await kiosk.getByRole('button', { name: 'Pair', exact: true }).click();
    await kiosk.getByRole('button', { name: 'Not now' }).click();
    await kiosk.getByRole('button', { name: 'Roll call' }).waitFor();
    await kiosk.getByRole('status').getByText('Online').waitFor();

    // A check-in the server cannot take yet stays pending on the kiosk, and its heartbeat says so.
    await kioskCtx.route('**/v1/sites/*/checkins/people', (route) =>
      route.request().method() === 'POST'
        ? route.fulfill({
            status: 503,
            contentType: 'application/problem+json',
            body: JSON.stringify({
              type: 'about:blank',
              title: 'Unavailable',
              status: 503,
              detail: 'Down for a moment',
              code: 'UNAVAILABLE',
              instance: '/',
              requestId: 'test',
            }),
          })
        : route.continue(),
    );
    await checkInThroughForm(kiosk, 'Kim', 'Kiosk');
    await expect.poll(() => checkinPosts(requests)).toBeGreaterThan(0);
    await kiosk.clock.fastForward('01:05');
    const pendingShown = async () => {
      await page.reload();
      return cell(page, 'Lobby tablet', 'Pending');
    };
    await expect.poll(pendingShown, { timeout: 15_000 }).toBe('1');
    expect(await cell(page, 'Lobby tablet', 'Last seen')).toMatch(/^\d{2}:\d{2}/);
    expect(await cell(page, 'Lobby tablet', 'App version')).toBe(version);
    expect(await cell(page, 'Lobby tablet', 'Needs attention')).toBe('0');
    expect(await noSidewaysScroll(page)).toBe(true);
    await consoleScreenshot(page, 'console-kiosks-desk');
    await page.setViewportSize(PHONE);
    expect(await noSidewaysScroll(page)).toBe(true);
    await consoleScreenshot(page, 'console-kiosks-phone');
    await page.setViewportSize(DESK);

    // The server is back: the visitor arrives, as a kiosk check-in.
    await kioskCtx.unroute('**/v1/sites/*/checkins/people');
    const search = async (q: string) =>
      (await world.api.post<{ data: PersonCheckin[] }>('/v1/checkins/people/search', { siteIds: [world.siteId], q }))
        .body.data;
    await expect
      .poll(
        async () => {
          await kiosk.clock.fastForward('01:00');
          return (await search('Kiosk'))[0]?.entry.source;
        },
        { timeout: 20_000 },
      )
      .toBe('KIOSK');

    // Revoked: the next sync is refused, the screen says so, the unsent check-in stays, and no retry follows.
    await rowNamed(page, 'Lobby tablet').getByRole('button', { name: 'Revoke' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Revoke' }).click();
    await expect.poll(() => rowNamed(page, 'Lobby tablet').count()).toBe(0);
    await checkInThroughForm(kiosk, 'Late', 'Comer');
    await kiosk.getByRole('alert').filter({ hasText: REVOKED }).waitFor({ timeout: 15_000 });
    const tries = checkinPosts(requests);
    await kiosk.clock.fastForward('10:00');
    await kiosk.waitForTimeout(1_000);
    expect(checkinPosts(requests)).toBe(tries);
    expect(await outboxCount(kiosk)).toBe(1);
    expect(await search('Comer')).toEqual([]);
    await screenshot(kiosk, 'kiosk-revoked');

    // A replacement kiosk for the same site; its first code is replaced by a new one, which alone pairs.
    await page.getByRole('button', { name: 'Add a kiosk' }).click();
    await dialog.getByLabel('Name').fill('Lobby tablet 2');
    await dialog.getByRole('button', { name: 'Add' }).click();
    await shown.waitFor();
    const firstCode = (await shown.innerText()).replace(' ', '');
    await dialog.getByRole('button', { name: 'Done' }).click();
    await rowNamed(page, 'Lobby tablet 2').getByRole('button', { name: 'New pairing code' }).click();
    await shown.waitFor();
    const secondCode = (await shown.innerText()).replace(' ', '');
    expect(secondCode).not.toBe(firstCode);
    await dialog.getByRole('button', { name: 'Done' }).click();

    // The revoked device pairs again with it, its unsent check-in waiting; then it syncs again.
    await kiosk.getByRole('button', { name: 'Pair again' }).click();
    await kiosk.getByLabel('Pairing code').fill(firstCode);
    await kiosk.getByRole('button', { name: 'Pair', exact: true }).click();
    await kiosk.getByRole('alert').filter({ hasText: 'This pairing code is wrong, used or expired.' }).waitFor();
    // This time as a keyboard-wedge scanner types the console's QR text: it fills both fields.
    await kiosk.getByLabel('Server address').fill('');
    await kiosk.getByLabel('Pairing code').fill('');
    await kiosk.getByLabel('Pairing code').pressSequentially(pairingLink(server.baseUrl, secondCode));
    expect(await kiosk.getByLabel('Server address').inputValue()).toBe(server.baseUrl);
    await kiosk.getByRole('button', { name: 'Pair', exact: true }).click();
    await expect.poll(async () => (await search('Comer'))[0]?.status, { timeout: 20_000 }).toBe('IN');
    expect(await kiosk.getByText(REVOKED).count()).toBe(0);
    await kioskCtx.close();
    await context.close();
  }, 150_000);
});
