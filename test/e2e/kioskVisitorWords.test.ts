import { type Browser, type BrowserContext, type Page, chromium } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import ar from '../../shared/src/messages/kiosk/ar.json';
import de from '../../shared/src/messages/kiosk/de.json';
import en from '../../shared/src/messages/kiosk/en.json';
import { CHROMIUM_ARGS, CHROMIUM_PATH, browserAvailable } from '../support/browser';
import { HOST_FIELD_LABEL } from '../../shared/src/messages/fieldLabels';
import zh from '../../shared/src/messages/kiosk/zh.json';
import { defaultCheckinConfig } from '../../shared/src/schemas/sites';
import { putCheckinConfig } from '../support/checkinConfig';
import { type World, buildToken, buildWorld, kioskSite } from '../support/factories';
import { builtKiosk, kioskWebAt, openKioskPage, screenshot } from '../support/kioskWeb';
import { type TestServer, startTestServer } from '../support/testServer';

// Issue #37: the camera viewer on the visitor's Scan a pass screen speaks the visitor's language: its group,
// its video, Stop camera, and what it says when the camera is refused (docs/languages.md, The kiosk).
// Chromium's fake camera shows its own test pattern (no QR code), so the viewer stays open until stopped.
describe.skipIf(!browserAvailable())('the kiosk’s camera viewer and host question in the visitor’s language', () => {
  let server: TestServer;
  let world: World;
  let browser: Browser | undefined;

  beforeAll(async () => {
    [server] = await Promise.all([startTestServer({ RATE_LIMIT_PER_MINUTE: '1000000' }), builtKiosk()]);
    world = await buildWorld(server);
    browser = await chromium.launch({
      executablePath: CHROMIUM_PATH,
      args: [...CHROMIUM_ARGS, '--use-fake-device-for-media-stream'],
    });
  }, 180_000);

  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  async function kioskIn(language: string, camera: boolean, site?: { siteId: number; kioskToken: string }) {
    if (!browser) throw new Error('Chromium did not start');
    const token =
      site?.kioskToken ??
      (
        await buildToken(server, {
          accountId: world.accountId,
          siteIds: [world.siteId],
          channel: 'KIOSK',
          mode: 'visitor',
        })
      ).token;
    const opened = await openKioskPage(browser, kioskWebAt(server), {
      serverUrl: server.baseUrl,
      token,
      siteId: site?.siteId ?? world.siteId,
      mode: 'visitor',
      ...(camera ? { beforeLoad: (opening: BrowserContext) => opening.grantPermissions(['camera']) } : {}),
    });
    await opened.page.getByRole('button', { name: /Language$/ }).click();
    await opened.page.getByRole('button', { name: language, exact: true }).click();
    return opened;
  }

  async function openCamera(page: Page, words: typeof en) {
    await page.getByRole('button', { name: words['home.scanPass'] }).click();
    await page.getByRole('button', { name: words['pass.withCamera'] }).click();
    await page.getByRole('group', { name: words['camera.group'] }).waitFor();
  }

  it('says Stop camera and names the camera in German, and stops it', async () => {
    const { context, page } = await kioskIn('Deutsch', true);
    await openCamera(page, de);
    await page.getByRole('group', { name: 'Kamera' }).getByLabel('Kamerabild').waitFor();
    await screenshot(page, 'kiosk-camera-de');
    expect(await page.getByRole('button', { name: en['camera.stop'] }).count()).toBe(0);
    await page.getByRole('button', { name: 'Kamera ausschalten' }).click();
    await page.getByRole('group', { name: 'Kamera' }).waitFor({ state: 'detached' });
    await page.getByRole('button', { name: de['pass.withCamera'] }).waitFor();
    await context.close();
  }, 90_000);

  it('says in Arabic, right to left, that the camera is not allowed', async () => {
    const { context, page } = await kioskIn('العربية', false);
    await expect.poll(() => page.evaluate(() => document.documentElement.dir)).toBe('rtl');
    await openCamera(page, ar);
    const group = page.getByRole('group', { name: 'الكاميرا' });
    await expect.poll(() => group.getByRole('alert').textContent()).toBe(ar['camera.notAllowed']);
    expect(ar['camera.notAllowed']).not.toBe(en['camera.notAllowed']);
    await screenshot(page, 'kiosk-camera-not-allowed-ar');
    await group.getByRole('button', { name: 'إيقاف الكاميرا' }).click();
    await group.waitFor({ state: 'detached' });
    await context.close();
  }, 90_000);

  // Issue #37: "Who are you visiting?", what the console's Add a host field writes, is a standard label.
  it('asks who the visitor is visiting in Chinese and in Arabic', async () => {
    const site = await kioskSite(server);
    await putCheckinConfig(site, [
      ...defaultCheckinConfig.fields,
      { name: 'hostName', label: HOST_FIELD_LABEL, type: 'host', required: true },
    ]);
    for (const [language, words] of [
      ['中文 (简体)', zh],
      ['العربية', ar],
    ] as const) {
      const { context, page } = await kioskIn(language, false, site);
      await page.getByRole('button', { name: words['home.checkIn'], exact: true }).click();
      await page.getByRole('combobox', { name: words['field.hostQuestion'] }).waitFor();
      expect(await page.getByLabel(HOST_FIELD_LABEL).count()).toBe(0);
      await context.close();
    }
  }, 90_000);
});
