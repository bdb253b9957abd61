import type { Browser, Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import type { PersonCheckin } from '../../shared/src/schemas/personCheckins';
import type { VehicleCheckin } from '../../shared/src/schemas/vehicles';
import { browserAvailable } from '../support/browser';
import { type KioskTestSite, kioskSite } from '../support/factories';
import { type ApiClient, apiClient } from '../support/http';
import {
  checkInThroughForm,
  kioskBrowserHooks,
  kioskContext,
  type KioskPageOptions,
  type KioskWeb,
  newestResult,
  openKioskPage,
  outboxCount,
  screenshot,
} from '../support/kioskWeb';
import { TEST_ADMIN_TOKEN, type TestServer } from '../support/testServer';

type Site = KioskTestSite;

describe.skipIf(!browserAvailable())('kiosk in a real browser: gate, Needs attention, setup', () => {
  let server: TestServer;
  let browser: Browser;
  let web: KioskWeb;
  let admin: ApiClient;

  kioskBrowserHooks((started) => ({ server, browser, web } = started));
  beforeAll(() => {
    admin = apiClient(server.baseUrl, TEST_ADMIN_TOKEN);
  });
  const newSite = () => kioskSite(server, 'North gate', 'gate');

  const open = (site: Site, mode: 'visitor' | 'gate', beforeLoad?: KioskPageOptions['beforeLoad']) =>
    openKioskPage(browser, web, {
      serverUrl: server.baseUrl,
      token: site.kioskToken,
      siteId: site.siteId,
      mode,
      beforeLoad,
    });
  /** No event stream: a change made elsewhere stays unknown to the kiosk until its 5-minute pull. */
  const withoutStream: KioskPageOptions['beforeLoad'] = (context) =>
    context.route('**/v1/events', (route) => route.abort());
  const statusBar = (page: Page) => page.getByRole('status');
  // The newest result card: what the action just taken came to (earlier results are listed under it).
  const result = newestResult;
  /** Gives the kiosk token access to these sites only (the management API; takes effect on the next request). */
  const setTokenSites = async (site: Site, siteIds: number[]) =>
    expect((await admin.patch(`/v1/admin/tokens/${site.kioskTokenId}`, { siteIds })).status).toBe(200);

  it("a plate enters with a scanner's Enter and exits with Exit, and the server has that visit", async () => {
    const site = await newSite();
    expect((await site.api.post('/v1/profiles/vehicles', { licensePlate: 'GH-100 AB' })).status).toBe(201);
    const { context, page } = await open(site, 'gate');
    const plate = page.getByLabel('License plate');
    await expect.poll(() => plate.evaluate((input) => input === document.activeElement)).toBe(true);

    // A keyboard-wedge scanner types into the focused input and ends with Enter.
    await page.keyboard.type('GH-100 AB', { delay: 5 });
    await page.keyboard.press('Enter');
    await expect.poll(() => result(page).innerText()).toContain('GH100AB');
    // Registered: the server lets it in, and the result follows the server's decision.
    await expect.poll(() => result(page).innerText(), { timeout: 10_000 }).toMatch(/\bIN\b/);
    expect(await plate.inputValue()).toBe('');

    await page.keyboard.type('ZZ 999', { delay: 5 });
    await page.keyboard.press('Enter');
    await expect.poll(() => result(page).innerText()).toMatch(/ZZ999\s+PENDING/);
    await expect.poll(() => outboxCount(page), { timeout: 10_000 }).toBe(0);
    // Unknown to the server: it stays PENDING once synced (a guard decides).
    expect(await result(page).innerText()).toMatch(/ZZ999\s+PENDING/);
    await page.keyboard.type('ZZ 999', { delay: 5 });
    await page.keyboard.press('Enter');
    await expect.poll(() => result(page).innerText()).toContain('already on site');
    await page.getByRole('button', { name: 'Exit', exact: true }).click();
    await expect.poll(() => result(page).innerText()).toMatch(/ZZ999\s+OUT/);

    await plate.fill('gh 100 ab');
    await page.getByRole('button', { name: 'Exit', exact: true }).click();
    await expect.poll(() => result(page).innerText()).toMatch(/GH100AB\s+OUT/);

    await page.keyboard.type('KL-4711', { delay: 5 });
    await page.keyboard.press('Enter');
    await expect.poll(() => result(page).innerText()).toMatch(/KL4711\s+PENDING/);
    await screenshot(page, 'kiosk-gate');

    const visitsOf = async (licensePlate: string) =>
      (
        await site.api.post<{ data: VehicleCheckin[] }>('/v1/checkins/vehicles/search', {
          siteIds: [site.siteId],
          licensePlate,
        })
      ).body.data;
    await expect
      .poll(async () => (await visitsOf('GH100AB')).map((visit) => visit.status), { timeout: 10_000 })
      .toEqual(['OUT']);
    expect((await visitsOf('GH100AB'))[0]).toMatchObject({
      licensePlate: 'GH-100 AB',
      entry: { source: 'KIOSK' },
      exit: { source: 'KIOSK' },
    });
    await expect
      .poll(async () => (await visitsOf('ZZ999')).map((visit) => visit.status), { timeout: 10_000 })
      .toEqual(['OUT']);
    await expect
      .poll(async () => (await visitsOf('KL4711')).map((visit) => visit.status), { timeout: 10_000 })
      .toEqual(['PENDING']);
    await context.close();
  }, 40_000);

  it('keeps the plate input focused for the scanner, and keeps a plate scanned while an action is busy', async () => {
    const site = await newSite();
    const { context, page } = await open(site, 'gate', withoutStream);
    const plate = page.getByLabel('License plate');
    const plateFocused = () => plate.evaluate((input) => input === document.activeElement);
    await expect.poll(plateFocused).toBe(true);
    await page.keyboard.type('AA 111', { delay: 5 });
    await page.keyboard.press('Enter');
    await expect.poll(() => result(page).innerText()).toMatch(/AA111\s+PENDING/);

    // A tap on the on-site list, on a blank area, or on a tab that keeps the gate: the next scan still lands.
    await page.locator('.vehicle-list li').filter({ hasText: 'AA111' }).click();
    await expect.poll(plateFocused).toBe(true);
    await page.mouse.click(640, 700);
    await expect.poll(plateFocused).toBe(true);
    await page.getByRole('button', { name: 'Home' }).click();
    await expect.poll(plateFocused).toBe(true);
    await page.keyboard.type('BB 222', { delay: 5 });
    await page.keyboard.press('Enter');
    await expect.poll(() => result(page).innerText()).toMatch(/BB222\s+PENDING/);

    // Tab still moves on (no keyboard trap: to the driver's name, then Entry); a scan started elsewhere than
    // in an input comes back to the plate input by itself.
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('driver-name');
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Entry');
    await page.keyboard.type('CC 333', { delay: 5 });
    expect(await plate.inputValue()).toBe('CC 333');
    await expect.poll(plateFocused).toBe(true);
    await plate.fill('');

    // A visit this kiosk does not know: Exit asks the server, slowly, and the guard scans the next plate meanwhile.
    expect((await site.api.post(`/v1/sites/${site.siteId}/checkins/vehicles`, { licensePlate: 'DD 444' })).status).toBe(
      201,
    );
    let searches = 0;
    await context.route('**/v1/checkins/vehicles/search', async (route) => {
      searches += 1;
      // Longer than a loaded machine may take to type the next plate, so it is all typed while Exit is busy.
      await new Promise((resolve) => setTimeout(resolve, 3_000));
      await route.continue();
    });
    await page.keyboard.type('DD 444', { delay: 5 });
    await page.getByRole('button', { name: 'Exit', exact: true }).click();
    await page.keyboard.type('EE 555', { delay: 5 });
    await expect.poll(() => result(page).innerText(), { timeout: 10_000 }).toMatch(/DD444\s+OUT/);
    expect(searches).toBe(1);
    // Only the plate that was recorded is cleared; the one scanned while busy is still there, focused.
    expect(await plate.inputValue()).toBe('EE 555');
    expect(await plateFocused()).toBe(true);
    await page.keyboard.press('Enter');
    await expect.poll(() => result(page).innerText()).toMatch(/EE555\s+PENDING/);
    expect(await plate.inputValue()).toBe('');

    // Another view's inputs keep their focus: Settings is not fought over (the gate screen is gone).
    await page.getByRole('button', { name: 'Settings' }).click();
    await page.getByLabel('Server address').click();
    await page.keyboard.type('x');
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('setup-server');
    await context.close();
  }, 40_000);

  it('an action the server refuses waits under Needs attention until a person retries or discards it', async () => {
    const site = await kioskSite(server, 'Lobby', 'visitor');
    const { context, page } = await open(site, 'visitor');
    await expect.poll(() => statusBar(page).textContent()).toContain('All synced');
    // The kiosk loses access to its site: the server now answers 404 for it.
    await setTokenSites(site, [site.otherSiteId]);
    await checkInThroughForm(page, 'Rosa', 'Parks');
    await expect.poll(() => statusBar(page).textContent(), { timeout: 10_000 }).toContain('1 needs attention');
    await page.getByRole('button', { name: 'Done' }).click();
    await page.getByRole('button', { name: 'Needs attention' }).click();
    const item = page.getByRole('listitem').filter({ hasText: 'Check-in of Rosa Parks' });
    await item.waitFor();
    expect(await item.textContent()).toContain('This kiosk may no longer have access to the site');
    await screenshot(page, 'kiosk-needs-attention');

    // While it waits, moving this kiosk to another site is refused (the action would be stranded).
    const visible = await apiClient(server.baseUrl, site.kioskToken).get<{ data: Array<{ name: string }> }>(
      '/v1/sites',
    );
    const otherName = visible.body.data[0]?.name ?? 'missing';
    await page.getByRole('button', { name: 'Settings' }).click();
    await page.getByRole('radio', { name: otherName, exact: true }).check();
    await page.getByRole('button', { name: 'Save' }).click();
    await expect.poll(() => page.getByRole('alert').textContent()).toContain('not synced yet');
    await page.getByRole('button', { name: 'Unpair' }).click();
    await expect.poll(() => page.getByRole('alert').textContent()).toContain('not synced yet');
    await page.getByRole('button', { name: 'Back' }).click();

    // Access restored, Retry sends it.
    await setTokenSites(site, [site.siteId]);
    await page.getByRole('button', { name: 'Needs attention' }).click();
    await item.getByRole('button', { name: 'Retry' }).click();
    await expect.poll(() => statusBar(page).textContent(), { timeout: 10_000 }).toContain('All synced');
    expect(await page.getByText('Nothing needs attention').count()).toBe(1);

    // Refused again, Discard drops it: the kiosk forgets the visit and says so.
    await setTokenSites(site, [site.otherSiteId]);
    await page.getByRole('button', { name: 'Home' }).click();
    await checkInThroughForm(page, 'Dan', 'Discard');
    await page.getByRole('button', { name: 'Done' }).click();
    await page.getByRole('button', { name: 'Needs attention' }).click();
    await page
      .getByRole('listitem')
      .filter({ hasText: 'Check-in of Dan Discard' })
      .getByRole('button', { name: 'Discard' })
      .click();
    // Discard asks first (the person leaves the Roll call): kioskAttention.test.ts holds the dialog itself.
    await page.getByRole('dialog').getByRole('button', { name: 'Yes, discard' }).click();
    await expect.poll(() => page.getByRole('alert').textContent()).toContain('Discarded Check-in of Dan Discard');
    await expect.poll(() => outboxCount(page)).toBe(0);
    await setTokenSites(site, [site.siteId]);
    const visits = await site.api.get<{ data: PersonCheckin[] }>(`/v1/sites/${site.siteId}/checkins/people`);
    expect(visits.body.data.map((visit) => visit.person.firstName)).toEqual(['Rosa']);
    await context.close();
  }, 40_000);

  it('opens Settings only with the PIN when the deployment set one, and locks it again on leaving', async () => {
    const site = await newSite();
    const { context, page } = await openKioskPage(browser, web, {
      serverUrl: server.baseUrl,
      token: site.kioskToken,
      siteId: site.siteId,
      mode: 'gate',
      pin: '2468',
    });
    // The PIN does not linger in the address bar.
    await expect.poll(() => page.evaluate(() => window.location.search)).toBe('');
    await page.getByRole('button', { name: 'Settings' }).click();
    expect(await page.getByLabel('Kiosk token').count()).toBe(0);
    const pin = page.getByLabel('Settings PIN');
    await expect.poll(() => pin.evaluate((element) => element === document.activeElement)).toBe(true);
    await pin.fill('1111');
    await page.getByRole('button', { name: 'Unlock' }).click();
    await expect.poll(() => page.getByRole('alert').textContent()).toBe('That PIN is not right.');
    expect(await page.getByLabel('Kiosk token').count()).toBe(0);
    await pin.fill('2468');
    await page.getByRole('button', { name: 'Unlock' }).click();
    await page.getByLabel('Kiosk token').waitFor();
    // Leaving Settings locks it again.
    await page.getByRole('button', { name: 'Home' }).click();
    await page.getByRole('button', { name: 'Settings' }).click();
    await page.getByLabel('Settings PIN').waitFor();
    expect(await page.getByLabel('Kiosk token').count()).toBe(0);
    // The PIN is kept on the device: a reload, with the address now bare, still asks for it.
    await page.reload();
    await page.getByLabel('License plate').waitFor();
    await page.getByRole('button', { name: 'Settings' }).click();
    await page.getByLabel('Settings PIN').waitFor();
    // Five wrong PINs in a row pause the prompt for a minute, and going Back and returning does not end the pause.
    for (let attempt = 0; attempt < 5; attempt += 1) {
      await pin.fill('0000');
      await page.getByRole('button', { name: 'Unlock' }).click();
    }
    await expect.poll(() => page.getByRole('alert').textContent()).toBe('Too many wrong PINs. Try again in a minute.');
    await page.getByRole('button', { name: 'Back' }).click();
    await page.getByLabel('License plate').waitFor();
    await page.getByRole('button', { name: 'Settings' }).click();
    await expect.poll(() => page.getByRole('alert').textContent()).toBe('Too many wrong PINs. Try again in a minute.');
    expect(await page.getByRole('button', { name: 'Unlock' }).isDisabled()).toBe(true);
    expect(await page.getByLabel('Settings PIN').isDisabled()).toBe(true);
    // Nor does a reload; and an address cannot give the locked kiosk another PIN or another pairing.
    await page.goto(`${web.url}?pin=0000&mode=visitor`);
    await expect
      .poll(() => page.getByRole('alert').first().textContent())
      .toContain('not applied: Settings are locked with a PIN');
    await page.getByLabel('License plate').waitFor();
    await page.getByRole('button', { name: 'Settings' }).click();
    await expect
      .poll(() => page.getByRole('alert').last().textContent())
      .toBe('Too many wrong PINs. Try again in a minute.');
    await context.close();
  }, 30_000);

  it('keeps Settings shut when the PIN set is not 4 to 12 digits, and asks for the PIN before a first pairing', async () => {
    const site = await newSite();
    const { context, page } = await openKioskPage(browser, web, {
      serverUrl: server.baseUrl,
      token: site.kioskToken,
      siteId: site.siteId,
      mode: 'gate',
      pin: '12',
    });
    await page.getByRole('button', { name: 'Settings' }).click();
    await expect
      .poll(() => page.getByRole('alert').textContent())
      .toContain('is not 4 to 12 digits, so Settings stay locked');
    expect(await page.getByLabel('Kiosk token').count()).toBe(0);
    expect(await page.getByLabel('Settings PIN').count()).toBe(0);
    await context.close();

    const fresh = await kioskContext(browser);
    const unpaired = await fresh.newPage();
    await unpaired.goto(`${web.url}?pin=97531`);
    await unpaired.getByLabel('Settings PIN').fill('97531');
    await unpaired.getByRole('button', { name: 'Unlock' }).click();
    await unpaired.getByLabel('Server address').waitFor();
    await fresh.close();
  }, 30_000);

  it('shows on the setup screen what the app ignored in kiosk.json or its variables (an installed kiosk has no console)', async () => {
    const context = await kioskContext(browser);
    // The Electron preload's bridge, as the main process answers for a kiosk.json with a trailing comma.
    await context.addInitScript(() => {
      Object.assign(window, {
        gatehouse: {
          platform: 'electron',
          presetSettings: async () => ({ problems: ['/etc/kiosk/kiosk.json is not valid JSON; ignored'] }),
        },
      });
    });
    const page = await context.newPage();
    await page.goto(web.url);
    const note = page.getByRole('note', { name: 'Preset settings not applied' });
    await note.waitFor();
    expect(await note.innerText()).toContain('/etc/kiosk/kiosk.json is not valid JSON; ignored');
    await context.close();
  }, 30_000);

  it('pairs through the setup screen with a site chosen from the server', async () => {
    const site = await newSite();
    const context = await kioskContext(browser);
    const page = await context.newPage();
    await page.goto(web.url);
    await expect.poll(() => statusBar(page).textContent()).toContain('Not paired');
    // A plain-http address off this device is said to send the token readable; the loopback one is not.
    const inTheClear = page.getByText('This address is not encrypted (http)');
    await page.getByLabel('Server address').fill('http://192.168.1.20:3000');
    await inTheClear.waitFor();
    await page.getByLabel('Server address').fill('https://192.168.1.20:3000');
    await inTheClear.waitFor({ state: 'detached' });
    // Nothing listens there: the failure is an alert, so it is read out where it appears.
    await page.getByLabel('Server address').fill('http://127.0.0.1:9');
    // The token path (for automation) is folded under the pairing code's.
    await page.getByText('Pair with a kiosk token instead').click();
    await page.getByLabel('Kiosk token').fill('ck_not_a_real_token');
    await page.getByRole('button', { name: 'Find sites' }).click();
    await expect.poll(() => page.getByRole('alert').textContent()).toContain('Cannot reach http://127.0.0.1:9.');
    // The API base as the server's start banner prints it, with /v1, pairs as well as the bare origin.
    await page.getByLabel('Server address').fill(`${server.baseUrl}/v1/`);
    await page.getByRole('button', { name: 'Find sites' }).click();
    await expect.poll(() => page.getByRole('alert').textContent()).toBe('The server did not accept this token.');
    await page.getByLabel('Kiosk token').fill(site.kioskToken);
    await page.getByRole('button', { name: 'Find sites' }).click();
    await page.getByRole('radio', { name: 'North gate' }).check();
    await page.getByRole('radio', { name: /Gate/ }).check();
    await page.getByRole('button', { name: 'Save' }).click();
    // Paired without a PIN: one is suggested, and may be left for later.
    await page.getByRole('heading', { name: 'Set a settings PIN?' }).waitFor();
    await page.getByRole('button', { name: 'Not now' }).click();
    await page.getByLabel('License plate').waitFor();
    await expect.poll(() => statusBar(page).textContent()).toMatch(/Online.*All synced/);
    // Paired for good: a reload comes back to the gate, not to the setup screen.
    await page.reload();
    await page.getByLabel('License plate').waitFor();
    // Paired through the /v1 URL, actions reach the server too.
    await page.getByLabel('License plate').fill('PR-1 V1');
    await page.keyboard.press('Enter');
    await expect.poll(() => result(page).innerText()).toMatch(/PR1V1\s+PENDING/);
    await expect.poll(() => outboxCount(page), { timeout: 10_000 }).toBe(0);
    const entered = await site.api.post<{ data: VehicleCheckin[] }>('/v1/checkins/vehicles/search', {
      siteIds: [site.siteId],
      licensePlate: 'PR1V1',
    });
    expect(entered.body.data.map((visit) => visit.status)).toEqual(['PENDING']);
    await context.close();
  }, 30_000);
});
