import type { Browser, Locator, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { browserAvailable } from '../support/browser';
import { type KioskTestSite, kioskSite } from '../support/factories';
import {
  exitButton,
  kioskBrowserHooks,
  type KioskWeb,
  newestResult,
  onSiteList,
  openGatePage,
  outboxCount,
  plateInput,
  resultCards,
  scan,
  screenshot,
  storeCount,
} from '../support/kioskWeb';
import type { TestServer } from '../support/testServer';
import { createVehicleLabel, registerVehicle } from '../support/vehicles';

// What a gate's result card says (CONTRACT §19): headed by what happened (Entry allowed, Waiting for a
// decision, Entry refused, Exit recorded), the plate normalized, a registered vehicle's make, model and
// colour from the gate's own copy, and a banner announced to screen readers when the server overrules the
// kiosk's offline prediction; an Exit card carries no Entry decision.

describe.skipIf(!browserAvailable())('kiosk gate in a real browser: what the result cards say', () => {
  let server: TestServer;
  let browser: Browser;
  let web: KioskWeb;

  kioskBrowserHooks((started) => ({ server, browser, web } = started));

  const statusBar = (page: Page) => page.getByRole('status');
  const heading = (card: Locator) => card.getByRole('heading').innerText();
  const offline = async (page: Page, down: boolean) => {
    await page.context().setOffline(down);
    await expect.poll(() => statusBar(page).textContent()).toContain(down ? 'Offline' : 'Online');
  };
  const copyHolds = (page: Page, vehicles: number) =>
    expect.poll(() => storeCount(page, 'knownVehicles'), { timeout: 15_000 }).toBe(vehicles);
  const blocking = async (site: KioskTestSite, name: string, licensePlate: string) => {
    const label = await createVehicleLabel(site.api, { name, blocksEntry: true });
    await registerVehicle(site.api, { licensePlate, labelIds: [label.labelId] });
  };

  it('headed by what happened, plates normalized, a registered car described from the local copy', async () => {
    const site = await kioskSite(server, 'North gate', 'gate');
    await registerVehicle(site.api, { licensePlate: 'AB-123 CD', make: 'Volvo', model: 'XC60', color: 'Blue' });
    await blocking(site, 'Banned', 'bad666');
    const { context, page } = await openGatePage({ server, browser, web }, site);
    await copyHolds(page, 2);

    await scan(page, 'ab 123-cd');
    const newest = newestResult(page);
    await expect.poll(() => newest.innerText()).toMatch(/^Entry allowed\s+AB123CD\s+IN\s+Volvo XC60 · Blue$/);
    expect(await heading(newest)).toBe('Entry allowed');
    // Offline too: the description is the gate's own copy's.
    await offline(page, true);
    await scan(page, 'bad666');
    await expect
      .poll(() => newest.innerText())
      .toMatch(/^Entry refused\s+BAD666\s+STOP\s+Blocked by label: Banned\s+Registered vehicle$/);
    expect(await heading(newest)).toBe('Entry refused');
    expect(await newest.innerText()).not.toMatch(/recorded/i);
    await scan(page, 'qq.999');
    await expect
      .poll(() => newest.innerText())
      .toMatch(/^Waiting for a decision\s+QQ999\s+PENDING\s+Unknown vehicle\s+Admit\s+Refuse$/);
    await offline(page, false);
    await expect.poll(() => onSiteList(page)).toEqual(['AB123CD', 'QQ999']);

    // The plate's history is headed with the plate as the gate shows it, and so is the Refuse dialog.
    await newest.getByRole('button', { name: 'QQ999' }).click();
    await page.getByRole('region', { name: 'Visits of QQ999' }).waitFor();
    await newest.getByRole('button', { name: 'Refuse', exact: true }).click();
    await page
      .getByRole('dialog', { name: 'Refuse QQ999?' })
      .getByRole('button', { name: 'Refuse', exact: true })
      .click();
    await expect.poll(() => heading(newest)).toBe('Entry refused');

    await plateInput(page).fill('ab123cd');
    await exitButton(page).click();
    await expect.poll(() => newest.innerText()).toMatch(/^Exit recorded\s+AB123CD\s+OUT\s+Volvo XC60 · Blue$/);
    await screenshot(page, 'kiosk-gate-cards');
    await context.close();
  }, 60_000);

  it('an overruled prediction is said in its own banner, announced (role="alert"); the Exit card shows no Entry decision', async () => {
    const site = await kioskSite(server, 'North gate', 'gate');
    const { context, page } = await openGatePage({ server, browser, web }, site);
    await expect.poll(() => outboxCount(page), { timeout: 10_000 }).toBe(0);
    await offline(page, true);
    // Unknown to the gate's copy when scanned; registered (one plainly, one stolen) meanwhile on the server.
    await scan(page, 'MM 100');
    await scan(page, 'LT 707');
    const newest = newestResult(page);
    await expect.poll(() => heading(newest)).toBe('Waiting for a decision');
    expect(await page.getByRole('alert').count()).toBe(0);
    await registerVehicle(site.api, { licensePlate: 'MM 100' });
    await blocking(site, 'Stolen', 'LT 707');
    await offline(page, false);

    const stolenAlert = newest.getByRole('alert');
    await expect
      .poll(() => stolenAlert.innerText(), { timeout: 15_000 })
      .toBe('The server decided: STOP — Blocked by label: Stolen');
    expect(await heading(newest)).toBe('Entry refused');
    // The reason is said once, in the banner.
    expect((await newest.innerText()).match(/Blocked by label: Stolen/g)).toHaveLength(1);
    const earlier = resultCards(page).nth(1);
    await expect.poll(() => earlier.getByRole('alert').innerText()).toBe('The server decided: IN');
    expect(await heading(earlier)).toBe('Entry allowed');
    await screenshot(page, 'kiosk-gate-overruled-banner');

    // The car that was let in leaves: its Exit card says the Exit, and no stale "The server decided: IN".
    await plateInput(page).fill('MM 100');
    await exitButton(page).click();
    await expect.poll(() => heading(newest)).toBe('Exit recorded');
    expect(await newest.innerText()).not.toContain('The server decided');
    expect(await newest.getByRole('alert').count()).toBe(0);
    // Its Entry card, now of a car that left, drops the banner too; the stolen car's stays.
    const entryCard = resultCards(page).nth(2);
    await expect.poll(() => heading(entryCard)).toBe('Left the site');
    expect(await entryCard.innerText()).not.toContain('The server decided');
    expect(await resultCards(page).nth(1).getByRole('alert').innerText()).toContain('Stolen');
    await context.close();
  }, 60_000);
});
