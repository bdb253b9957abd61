import type { Browser, Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Invitation } from '../../shared/src/schemas/invitations';
import type { PersonCheckin } from '../../shared/src/schemas/personCheckins';
import { browserAvailable } from '../support/browser';
import { consoleAndKioskHooks } from '../support/consoleKiosk';
import { consolePage, consoleScreenshot, signIn } from '../support/consoleWeb';
import { type World, buildToken, buildWorld } from '../support/factories';
import { invite, passOf } from '../support/invitations';
import type { KioskWeb } from '../support/kioskBuild';
import { scanPassByScanner, waitForPassKeys } from '../support/kioskPasses';
import { openKioskPage, outboxCount, screenshot } from '../support/kioskWeb';
import { type StaffMember, buildStaffUser } from '../support/staff';
import type { TestServer } from '../support/testServer';

// Issue #34 (CONTRACT §21): two kiosks of one site, both offline, each welcome the same pass (each has only
// its own memory of the passes it used); once back, the server admits the first and holds the second
// (PENDING, "Pass already used at …") with an alert reception sees. The kiosk says in words why a pass is
// not honoured, and refuses a pass it has used.
describe.skipIf(!browserAvailable())('passes at the kiosk, offline, end to end', () => {
  let server: TestServer;
  let browser: Browser;
  let web: KioskWeb;
  let world: World;
  let reception: StaffMember;

  consoleAndKioskHooks((started) => ({ server, browser, web } = started));
  beforeAll(async () => {
    world = await buildWorld(server);
    reception = await buildStaffUser(server, {
      accountId: world.accountId,
      role: 'reception',
      siteIds: [world.siteId],
    });
  });

  /** A visitor kiosk of the site, online, holding the pass keys; then cut off from the network. */
  async function offlineKiosk(name: string) {
    const token = await buildToken(server, {
      accountId: world.accountId,
      siteIds: [world.siteId],
      channel: 'KIOSK',
      mode: 'visitor',
      name,
    });
    const opened = await openKioskPage(browser, web, {
      serverUrl: server.baseUrl,
      token: token.token,
      siteId: world.siteId,
      mode: 'visitor',
    });
    await waitForPassKeys(opened.page);
    await opened.context.setOffline(true);
    await opened.page.getByRole('status').getByText('Offline').waitFor();
    return opened;
  }

  /** Scans `token` and checks in from the Welcome form the pass opens. */
  async function checkInWithPass(page: Page, token: string, screenshotName?: string) {
    await scanPassByScanner(page, token);
    await page.getByRole('heading', { name: 'Welcome, Ada' }).waitFor();
    // The pass says who this is: the form does not ask the name again.
    expect(await page.getByLabel('First name', { exact: true }).count()).toBe(0);
    if (screenshotName) await screenshot(page, screenshotName);
    await page.getByRole('button', { name: 'Check in', exact: true }).click();
    await page.getByText('You are checked in. Please check out when you leave.').waitFor();
    await page.getByRole('button', { name: 'Done' }).click();
  }

  const refusal = (page: Page) => page.getByRole('alert').textContent();

  it('two offline kiosks welcome one pass; the server holds the second with an alert in the console', async () => {
    const invitation = await invite(world.api, world.siteId);
    const { token } = await passOf(world.api, invitation.invitationId);
    const first = await offlineKiosk('Lobby left');
    const second = await offlineKiosk('Lobby right');

    await checkInWithPass(first.page, token, 'kiosk-pass-welcome');
    // This kiosk remembers it: the same pass again is refused here, in words, with the form offered.
    await scanPassByScanner(first.page, token);
    await expect.poll(() => refusal(first.page)).toBe('This pass was already used on this kiosk.');
    await screenshot(first.page, 'kiosk-pass-used-here');
    await first.page.getByRole('button', { name: 'Back' }).click();

    // The other kiosk never heard of that use: it welcomes the same pass (a photo of it, say).
    await checkInWithPass(second.page, token);

    // Back online, one after the other: the first use admits, the second is held with its reason.
    await first.context.setOffline(false);
    await expect.poll(() => outboxCount(first.page), { timeout: 20_000 }).toBe(0);
    await second.context.setOffline(false);
    await expect.poll(() => outboxCount(second.page), { timeout: 20_000 }).toBe(0);

    const visits = await world.api.get<{ data: PersonCheckin[] }>(`/v1/sites/${world.siteId}/checkins/people`);
    const ada = visits.body.data.filter((visit) => visit.person.lastName === 'Lovelace');
    expect(ada.map((visit) => visit.status).sort()).toEqual(['IN', 'PENDING']);
    expect(ada.every((visit) => visit.invitationId === invitation.invitationId)).toBe(true);
    expect(ada.find((visit) => visit.status === 'PENDING')?.pendingReason).toMatch(/^Pass already used at \d\d:\d\d$/);
    const after = await world.api.get<Invitation>(`/v1/invitations/${invitation.invitationId}`);
    expect(after.body.status).toBe('arrived');

    const desk = await consolePage(browser);
    await signIn(desk.page, server.baseUrl, reception.email, reception.password);
    const alertsLink = desk.page.getByRole('navigation').getByRole('link', { name: /^Alerts/ });
    await expect.poll(() => alertsLink.innerText(), { timeout: 10_000 }).toBe('Alerts 1');
    await alertsLink.click();
    const card = desk.page.getByRole('listitem').filter({ hasText: 'Ada Lovelace' });
    await expect.poll(() => card.innerText(), { timeout: 5_000 }).toMatch(/Pass already used at \d\d:\d\d/);
    await consoleScreenshot(desk.page, 'console-alert-pass-used');
    await desk.context.close();
    await first.context.close();
    await second.context.close();
  }, 120_000);

  it('says in words why a pass is not honoured, offline, and offers the normal check-in', async () => {
    const cancelled = await invite(world.api, world.siteId, { person: { firstName: 'Cy', lastName: 'Cancelled' } });
    const cancelledPass = (await passOf(world.api, cancelled.invitationId)).token;
    expect((await world.api.post(`/v1/invitations/${cancelled.invitationId}/cancel`, {})).status).toBe(200);
    const genuine = (await passOf(world.api, (await invite(world.api, world.siteId)).invitationId)).token;
    const otherSite = (await passOf(world.api, (await invite(world.api, world.otherSiteId)).invitationId)).token;
    const elsewhere = await buildWorld(server);
    const foreign = (await passOf(elsewhere.api, (await invite(elsewhere.api, elsewhere.siteId)).invitationId)).token;
    // The payload changed after signing: another name on a genuine signature.
    const [header, payload = '', signature] = genuine.split('.');
    const claims = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as Record<string, unknown>;
    const altered = Buffer.from(JSON.stringify({ ...claims, firstName: 'Eve' })).toString('base64url');
    const forged = [header, altered, signature].join('.');

    const { page, context } = await offlineKiosk('Lobby centre');
    const cases: Array<[string, string]> = [
      [cancelledPass, 'This pass was cancelled.'],
      [otherSite, 'This pass is for another site, not this one.'],
      [foreign, 'This pass is for another organisation, not this one.'],
      [forged, 'This pass is not genuine: it was changed or not issued by us.'],
      ['WIFI:S:lobby;T:WPA;P:secret;;', 'This code is not a visitor pass.'],
    ];
    for (const [text, words] of cases) {
      await scanPassByScanner(page, text);
      await expect.poll(() => refusal(page)).toBe(words);
      await page.getByRole('button', { name: 'Back' }).click();
    }
    await screenshot(page, 'kiosk-pass-not-genuine');
    // The normal check-in is one tap away, and nothing of the refused pass is in it.
    await scanPassByScanner(page, forged);
    await page.getByRole('button', { name: 'Check in', exact: true }).click();
    await page.getByRole('heading', { name: 'Check in' }).waitFor();
    expect(await page.getByLabel('First name', { exact: true }).inputValue()).toBe('');
    // In German, the button and the welcome are German (the name is the pass's).
    await page.getByRole('button', { name: 'Back' }).click();
    await page.getByRole('button', { name: /Language$/ }).click();
    await page.getByRole('button', { name: 'Deutsch', exact: true }).click();
    await scanPassByScanner(page, genuine, 'Besucherpass scannen');
    await page.getByRole('heading', { name: 'Willkommen, Ada' }).waitFor();
    await context.close();
  }, 90_000);
});
