import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { type Browser, chromium } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pairingLink } from '../../shared/src/schemas/kiosks';
import { CHROMIUM_ARGS, CHROMIUM_PATH, browserAvailable } from '../support/browser';
import { writeQrVideo } from '../support/fakeCamera';
import { builtKiosk, kioskWebAt, screenshot } from '../support/kioskWeb';
import { addKiosk, controlledByServiceWorker, lobby, pairAndSkipPin } from '../support/tablet';
import { type TestServer, startTestServer } from '../support/testServer';

// Pairing with the device's camera (CONTRACT §22): the console's QR code, shown to Chromium's fake camera as
// a video written here from the code's modules. Headless Chromium on Linux has no BarcodeDetector, so this
// reads with the bundled zxing-wasm decoder, the fallback; the test checks which one it was.

describe.skipIf(!browserAvailable())('kiosk pairing with the camera', () => {
  let server: TestServer;
  let folder: string;
  let browser: Browser | undefined;

  beforeAll(async () => {
    [server] = await Promise.all([startTestServer({ RATE_LIMIT_PER_MINUTE: '1000000' }), builtKiosk()]);
    folder = await fs.mkdtemp(path.join(os.tmpdir(), 'gatehouse-camera-'));
  }, 180_000);

  afterAll(async () => {
    await browser?.close();
    await server?.close();
    await fs.rm(folder, { recursive: true, force: true });
  });

  /** Chromium whose only camera shows `text`'s QR code. */
  async function cameraShowing(text: string): Promise<Browser> {
    await browser?.close();
    const video = path.join(folder, `${Date.now()}.y4m`);
    await writeQrVideo(video, text);
    browser = await chromium.launch({
      executablePath: CHROMIUM_PATH,
      args: [...CHROMIUM_ARGS, '--use-fake-device-for-media-stream', `--use-file-for-fake-video-capture=${video}`],
    });
    return browser;
  }

  it('reads the console’s QR code with the camera, fills both fields, and pairs once Pair is tapped', async () => {
    const { siteId, manager } = await lobby(server);
    const code = await addKiosk(manager, siteId);
    const camera = await cameraShowing(pairingLink(server.baseUrl, code));
    const context = await camera.newContext({ viewport: { width: 1280, height: 800 }, permissions: ['camera'] });
    context.setDefaultTimeout(15_000);
    const page = await context.newPage();
    const requested: string[] = [];
    page.on('request', (request) => requested.push(request.url()));
    await page.goto(kioskWebAt(server).url);
    // The decoder's WebAssembly is part of the app kept on the device.
    await controlledByServiceWorker(page);
    const cached = await page.evaluate(async () =>
      (await Promise.all((await caches.keys()).map(async (name) => (await caches.open(name)).keys())))
        .flat()
        .map((request) => request.url),
    );
    expect(cached.some((url) => url.endsWith('.wasm'))).toBe(true);

    await page.getByLabel('Server address').fill('');
    await page.getByRole('button', { name: 'Scan with camera' }).click();
    await page.getByRole('group', { name: 'Camera' }).waitFor();
    await expect.poll(() => page.getByLabel('Pairing code').inputValue(), { timeout: 20_000 }).toBe(code);
    expect(await page.getByLabel('Server address').inputValue()).toBe(server.baseUrl);
    // The camera is off again, and the person is told what to check before pairing.
    expect(await page.getByRole('group', { name: 'Camera' }).count()).toBe(0);
    await page.getByText('Read from the camera: check the server address, then Pair.').waitFor();
    await screenshot(page, 'kiosk-camera-read');

    expect(await page.evaluate(() => 'BarcodeDetector' in window)).toBe(false);
    // So zxing-wasm read it, from this server: nothing was fetched from anywhere else (no CDN).
    expect(requested.some((url) => /\/kiosk\/assets\/zxing_reader-[\w-]+\.wasm$/.test(url))).toBe(true);
    expect(requested.filter((url) => !url.startsWith(server.baseUrl))).toEqual([]);

    await pairAndSkipPin(page);
    await context.close();
  }, 90_000);

  it('says in words when the camera is not allowed, and the code can still be typed', async () => {
    const { siteId, manager } = await lobby(server);
    const code = await addKiosk(manager, siteId);
    const camera = await cameraShowing(pairingLink(server.baseUrl, code));
    // No camera permission: the browser refuses it, as after a person tapped Block.
    const context = await camera.newContext({ viewport: { width: 1280, height: 800 } });
    context.setDefaultTimeout(15_000);
    const page = await context.newPage();
    await page.goto(kioskWebAt(server).url);
    await page.getByRole('button', { name: 'Scan with camera' }).click();
    await expect
      .poll(() => page.getByRole('alert').textContent())
      .toBe(
        "The camera is not allowed for this page. Allow it in the browser's site settings, or type the code in instead.",
      );
    await screenshot(page, 'kiosk-camera-not-allowed');
    await page.getByRole('button', { name: 'Stop camera' }).click();
    await page.getByLabel('Pairing code').fill(code);
    await pairAndSkipPin(page);
    await context.close();
  }, 90_000);
});
