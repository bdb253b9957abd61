import type { Browser } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { browserAvailable } from '../support/browser';
import { kioskSite } from '../support/factories';
import { GATE_SIZES, gateLayoutProblems } from '../support/gateLayout';
import {
  exitButton,
  kioskBrowserHooks,
  type KioskWeb,
  newestResult,
  openKioskPage,
  outboxCount,
  scan,
  screenshot,
  storeCount,
} from '../support/kioskWeb';
import type { TestServer } from '../support/testServer';
import { arrive, createVehicleLabel, registerVehicle } from '../support/vehicles';

// The gate at every size it is used at (CONTRACT §19): after each kind of result, no control overlaps another
// or leaves its card, nothing in a card sticks out or is clipped, and the newest result card (the one the
// guard just made) is wholly in view under the plate form, above the status bar, without scrolling.

describe.skipIf(!browserAvailable())('kiosk gate in a real browser: the layout at every size', () => {
  let server: TestServer;
  let browser: Browser;
  let web: KioskWeb;

  kioskBrowserHooks((started) => ({ server, browser, web } = started));

  for (const size of GATE_SIZES) {
    const at = `${size.width}x${size.height}`;
    it(`at ${size.width}×${size.height} every card holds its controls and the newest card is in view`, async () => {
      // A long site name (the header), a registered car with a long description, a banned one, cars on site.
      const site = await kioskSite(server, 'North gate of the Riverside Logistics Park, loading bays 4 to 9', 'gate');
      const banned = await createVehicleLabel(site.api, { name: 'Banned from all sites', blocksEntry: true });
      await registerVehicle(site.api, { licensePlate: 'bad666', labelIds: [banned.labelId] });
      await registerVehicle(site.api, {
        licensePlate: 'AB-123 CD',
        make: 'Mercedes-Benz',
        model: 'Sprinter 316 CDI Kastenwagen',
        color: 'Obsidian black metallic',
      });
      for (const plate of ['ZZ 1', 'YY 22', 'XX 333', 'WW 4444'])
        await arrive(site.api, site.siteId, { licensePlate: plate });
      const { context, page } = await openKioskPage(browser, web, {
        serverUrl: server.baseUrl,
        token: site.kioskToken,
        siteId: site.siteId,
        mode: 'gate',
      });
      await page.setViewportSize(size);
      await expect.poll(() => storeCount(page, 'knownVehicles'), { timeout: 15_000 }).toBe(2);
      await expect.poll(() => page.locator('.vehicle-list li').count(), { timeout: 15_000 }).toBe(4);
      const problems: string[] = [];
      const check = async (name: string, heading: string) => {
        await newestResult(page).getByRole('heading', { name: heading, exact: true }).waitFor();
        await screenshot(page, `kiosk-gate-layout-${at}-${name}`);
        problems.push(...(await gateLayoutProblems(page)).map((problem) => `${name}: ${problem}`));
      };
      const typeAndPress = async (plate: string, button: 'Entry' | 'Exit') => {
        await page.getByLabel('License plate').fill(plate);
        await page.getByRole('button', { name: button, exact: true }).click();
      };

      problems.push(...(await gateLayoutProblems(page)).map((problem) => `empty: ${problem}`));
      await page.getByLabel('Driver name').fill('Bartholomew Featherstonehaugh-Whittingham');
      await typeAndPress('ab-123 cd', 'Entry');
      await check('registered', 'Entry allowed');
      await scan(page, 'bad666');
      await check('blocked', 'Entry refused');
      await scan(page, 'QQ 999');
      await check('pending', 'Waiting for a decision');

      // Overruled: the kiosk's copy did not know LT 707 was stolen when it let the Entry wait.
      await context.setOffline(true);
      await page.getByRole('status').getByText('Offline').waitFor();
      const stolen = await createVehicleLabel(site.api, {
        name: 'Stolen, report to the police at once',
        blocksEntry: true,
      });
      await registerVehicle(site.api, { licensePlate: 'LT 707', labelIds: [stolen.labelId] });
      await scan(page, 'LT 707');
      await check('predicted', 'Waiting for a decision');
      await context.setOffline(false);
      await newestResult(page).getByRole('alert').waitFor({ timeout: 15_000 });
      await check('overruled', 'Entry refused');

      await exitButton(page).waitFor();
      await typeAndPress('AB123CD', 'Exit');
      await check('exit', 'Exit recorded');
      await typeAndPress('NOPE 1', 'Exit');
      await check('refused', 'Not recorded');

      await expect.poll(() => outboxCount(page), { timeout: 15_000 }).toBe(0);
      expect(problems).toEqual([]);
      await context.close();
    }, 90_000);
  }

  it('the layout check finds a control out of its card and a card below the status bar', async () => {
    const site = await kioskSite(server, 'North gate', 'gate');
    const { context, page } = await openKioskPage(browser, web, {
      serverUrl: server.baseUrl,
      token: site.kioskToken,
      siteId: site.siteId,
      mode: 'gate',
    });
    await page.setViewportSize({ width: 1024, height: 768 });
    await scan(page, 'QQ 999');
    await newestResult(page).getByRole('heading', { name: 'Waiting for a decision' }).waitFor();
    expect(await gateLayoutProblems(page)).toEqual([]);
    // Buttons wider than their half of the row (as Exit was at 1024 px, sticking out of the form), a tall form.
    await page.addStyleTag({
      content: '.gate .gate-buttons .button-large { min-width: 240px; } .gate .plate-input { min-height: 400px; }',
    });
    const found = await gateLayoutProblems(page);
    expect(found).toContainEqual(expect.stringMatching(/^button "Exit" leaves its card/));
    expect(found).toContainEqual(expect.stringMatching(/^div "Waiting for a decision.*is not wholly in view/));
    await context.close();
  }, 40_000);
});
