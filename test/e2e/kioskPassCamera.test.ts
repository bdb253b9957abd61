import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { type Browser, chromium } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PersonCheckin } from '../../shared/src/schemas/personCheckins';
import { CHROMIUM_ARGS, CHROMIUM_PATH, browserAvailable } from '../support/browser';
import { type World, buildToken, buildWorld } from '../support/factories';
import { writeQrVideo } from '../support/fakeCamera';
import { invite, passOf } from '../support/invitations';
import { waitForPassKeys } from '../support/kioskPasses';
import { builtKiosk, kioskWebAt, openKioskPage, outboxCount, screenshot } from '../support/kioskWeb';
import { controlledByServiceWorker } from '../support/tablet';
import { type TestServer, startTestServer } from '../support/testServer';

// Issue #34 (CONTRACT §21): a tablet kiosk, offline, reads a visitor's pass with its camera. Chromium's fake
// camera plays a video of the pass's QR code (written from the code's modules, test/support/fakeCamera.ts);
// the kiosk checks it with the keys it pulled before, welcomes the visitor, and syncs once back online.
describe.skipIf(!browserAvailable())('a pass read by the kiosk’s camera, offline', () => {
  let server: TestServer;
  let world: World;
  let folder: string;
  let browser: Browser | undefined;

  beforeAll(async () => {
    [server] = await Promise.all([startTestServer({ RATE_LIMIT_PER_MINUTE: '1000000' }), builtKiosk()]);
    world = await buildWorld(server);
    folder = await fs.mkdtemp(path.join(os.tmpdir(), 'gatehouse-pass-camera-'));
  }, 180_000);

  afterAll(async () => {
    await browser?.close();
    await server?.close();
    await fs.rm(folder, { recursive: true, force: true });
  });

  it('reads the QR code of the pass, welcomes Ada by name, and the check-in reaches her invitation', async () => {
    const invitation = await invite(world.api, world.siteId);
    const { token } = await passOf(world.api, invitation.invitationId);
    const video = path.join(folder, 'pass.y4m');
    await writeQrVideo(video, token);
    browser = await chromium.launch({
      executablePath: CHROMIUM_PATH,
      args: [...CHROMIUM_ARGS, '--use-fake-device-for-media-stream', `--use-file-for-fake-video-capture=${video}`],
    });
    const kioskToken = await buildToken(server, {
      accountId: world.accountId,
      siteIds: [world.siteId],
      channel: 'KIOSK',
      mode: 'visitor',
    });
    const { context, page } = await openKioskPage(browser, kioskWebAt(server), {
      serverUrl: server.baseUrl,
      token: kioskToken.token,
      siteId: world.siteId,
      mode: 'visitor',
      beforeLoad: (opening) => opening.grantPermissions(['camera']),
    });
    // The app and its QR decoder are kept on the device, and so are the pass keys: then the network goes.
    await controlledByServiceWorker(page);
    await waitForPassKeys(page);
    await context.setOffline(true);
    await page.getByRole('status').getByText('Offline').waitFor();

    await page.getByRole('button', { name: 'Scan a pass' }).click();
    await page.getByRole('button', { name: 'Scan with camera' }).click();
    await page.getByRole('group', { name: 'Camera' }).waitFor();
    await page.getByRole('heading', { name: 'Welcome, Ada' }).waitFor({ timeout: 20_000 });
    // The camera is off again once the pass is read.
    expect(await page.getByRole('group', { name: 'Camera' }).count()).toBe(0);
    await screenshot(page, 'kiosk-pass-camera-welcome');
    await page.getByRole('button', { name: 'Check in', exact: true }).click();
    await page.getByText('You are checked in. Please check out when you leave.').waitFor();

    await context.setOffline(false);
    await expect.poll(() => outboxCount(page), { timeout: 20_000 }).toBe(0);
    const visits = await world.api.get<{ data: PersonCheckin[] }>(`/v1/sites/${world.siteId}/checkins/people`);
    expect(visits.body.data.map((visit) => [visit.person.firstName, visit.status, visit.invitationId])).toEqual([
      ['Ada', 'IN', invitation.invitationId],
    ]);
    await context.close();
  }, 120_000);
});
