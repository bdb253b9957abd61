import { createHash } from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { browserAvailable, launchChromium } from '../support/browser';
import { kioskSite } from '../support/factories';
import {
  builtKiosk,
  checkInThroughForm,
  kioskWebAt,
  openKioskPage,
  outboxCount,
  screenshot,
} from '../support/kioskWeb';
import { controlledByServiceWorker, serverVisits } from '../support/tablet';
import { type TestServer, startTestServer } from '../support/testServer';

// A new server version's kiosk build reaching a tablet (docs/kiosk-tablet.md, Updates): it waits while
// actions are queued (the status bar says so), and takes over only once they reached the server and the kiosk
// was left alone; the queued check-in arrives once. The server serves a copy of the build that the test
// then replaces with a "newer" one, as an upgrade of the server would.

const NEW_BUILD_MARK = '<meta name="gatehouse-test-build" content="2" />';

/** What a newer build changes for the service worker: index.html, and its revision in sw.js's precache list. */
async function publishNewerBuild(dir: string): Promise<void> {
  const indexFile = path.join(dir, 'index.html');
  const index = (await fs.readFile(indexFile, 'utf8')).replace('<title>', `${NEW_BUILD_MARK}<title>`);
  await fs.writeFile(indexFile, index);
  const workerFile = path.join(dir, 'sw.js');
  const revision = createHash('md5').update(index).digest('hex');
  const worker = await fs.readFile(workerFile, 'utf8');
  const updated = worker.replace(/(url:"index\.html",revision:")[0-9a-f]+"/, `$1${revision}"`);
  expect(updated).not.toBe(worker);
  await fs.writeFile(workerFile, updated);
}

describe.skipIf(!browserAvailable())('kiosk updates on a tablet', () => {
  let server: TestServer;
  let browser: Browser;
  let dir: string;

  beforeAll(async () => {
    const { dir: built } = await builtKiosk();
    dir = await fs.mkdtemp(path.join(os.tmpdir(), 'gatehouse-kiosk-update-'));
    await fs.cp(built, dir, { recursive: true });
    [server, browser] = await Promise.all([
      startTestServer({ RATE_LIMIT_PER_MINUTE: '1000000' }, { kioskDir: dir }),
      launchChromium(),
    ]);
  }, 180_000);

  afterAll(async () => {
    await browser?.close();
    await server?.close();
    if (dir) await fs.rm(dir, { recursive: true, force: true });
  });

  it('waits for the queue to drain, says so, then reloads into the new build; the queued check-in arrives once', async () => {
    const site = await kioskSite(server);
    const web = kioskWebAt(server);
    const { context, page } = await openKioskPage(browser, web, {
      serverUrl: server.baseUrl,
      token: site.kioskToken,
      siteId: site.siteId,
      mode: 'visitor',
    });
    await controlledByServiceWorker(page);
    const statusBar = page.getByRole('status');
    const waitingWorker = () =>
      page.evaluate(async () => (await navigator.serviceWorker.getRegistration())?.waiting?.state ?? null);

    // Check-ins cannot reach the server for now: this one waits in the queue.
    await context.route('**/v1/sites/*/checkins/people', (route) => route.abort('connectionrefused'));
    await checkInThroughForm(page, 'Ada', 'Lovelace');
    await expect.poll(() => outboxCount(page)).toBe(1);
    // Opened again with the shortest idle delay: the quiet wait before an update is ten of them, 10 s.
    await page.goto(`${web.url}?idle=1000`);
    await page.getByRole('button', { name: 'Check in', exact: true }).waitFor();
    const events: string[] = [];
    page.on('response', (response) => {
      if (response.request().method() === 'POST' && /\/checkins\/people$/.test(response.url()) && response.ok())
        events.push('check-in sent');
    });
    page.on('framenavigated', (frame) => {
      if (frame === page.mainFrame()) events.push('reloaded');
    });

    await publishNewerBuild(dir);
    // What the kiosk does every hour and whenever it comes online.
    await page.evaluate(async () => (await navigator.serviceWorker.getRegistration())?.update());
    await expect.poll(() => statusBar.textContent(), { timeout: 20_000 }).toMatch(/Update waiting: 1 pending/);
    await screenshot(page, 'kiosk-update-waiting');
    // Past the quiet wait with nobody at the kiosk: still not, while the check-in is queued.
    await page.waitForTimeout(15_000);
    expect(await waitingWorker()).toBe('installed');
    expect(events).toEqual([]);
    expect(await outboxCount(page)).toBe(1);

    // The network is back (an online event: the kiosk sends at once): the check-in goes first; the new build
    // takes over after the quiet wait.
    await context.unroute('**/v1/sites/*/checkins/people');
    await context.setOffline(true);
    await context.setOffline(false);
    await expect.poll(() => statusBar.textContent(), { timeout: 20_000 }).toMatch(/All synced.*Update ready/);
    // A visitor filling in the form meanwhile, for longer than the quiet wait, is not cut off.
    await page.getByRole('button', { name: 'Check in', exact: true }).click();
    const firstName = page.getByLabel('First name', { exact: true });
    await firstName.click();
    const typed = 'Grace Brewster Murray Hopper, Rear Admiral';
    await page.keyboard.type(typed, { delay: 350 });
    expect(events).toEqual(['check-in sent']);
    expect(await firstName.inputValue()).toBe(typed);
    // Left alone, the kiosk takes the new build.
    await page.waitForFunction(() => document.querySelector('meta[name="gatehouse-test-build"]') !== null, undefined, {
      timeout: 45_000,
    });
    expect(events).toEqual(['check-in sent', 'reloaded']);

    // The new build runs, still paired, with nothing waiting.
    await page.getByRole('button', { name: 'Check in', exact: true }).waitFor();
    await expect.poll(() => statusBar.textContent()).toMatch(/Online.*All synced/);
    expect(await statusBar.textContent()).not.toMatch(/Update/);
    expect(await waitingWorker()).toBe(null);
    expect(await serverVisits(site.api, site.siteId)).toEqual(['Ada IN']);
    await context.close();
  }, 120_000);
});
