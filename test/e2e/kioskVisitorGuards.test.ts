import type { Browser, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { browserAvailable } from '../support/browser';
import { type KioskTestSite, kioskSite } from '../support/factories';
import { putCheckinConfig } from '../support/checkinConfig';
import { checkInThroughForm, kioskBrowserHooks, type KioskWeb, openKioskPage, storeCount } from '../support/kioskWeb';
import type { TestServer } from '../support/testServer';

// The visitor screens against what a hurried or absent-minded person does at a lobby tablet: a double tap,
// checking in twice, walking away half-way, a very long name.

type Site = KioskTestSite;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Visits this kiosk holds (on site or gone), read from IndexedDB itself: the outbox empties as the server acknowledges. */
const localVisits = (page: Page) => storeCount(page, 'people');

/** How long the idle tests let the kiosk wait for input (`?idle=`), instead of the real minute. */
const IDLE_MS = 1_500;

describe.skipIf(!browserAvailable())('kiosk in a real browser: visitor mode guards', () => {
  let server: TestServer;
  let browser: Browser;
  let web: KioskWeb;

  kioskBrowserHooks((started) => ({ server, browser, web } = started));
  const newSite = () => kioskSite(server, 'Headquarters');

  /** The visitor kiosk of `site`, with more of the address where a test needs it (a short idle delay, a PIN). */
  const open = (site: Site, more: { query?: Record<string, string>; pin?: string } = {}) =>
    openKioskPage(browser, web, {
      serverUrl: server.baseUrl,
      token: site.kioskToken,
      siteId: site.siteId,
      mode: 'visitor',
      ...more,
    });

  const checkInButton = (page: Page) => page.getByRole('button', { name: 'Check in', exact: true });
  const visitorHome = (page: Page) => page.getByRole('heading', { name: 'Welcome', exact: true });

  it('a second tap on Check in, as the confirmation shows, leaves the Welcome on screen; a later tap still returns at once', async () => {
    const site = await newSite();
    const { context, page } = await open(site);
    await checkInButton(page).click();
    await page.getByLabel('First name', { exact: true }).fill('Ada');
    await page.getByLabel('Last name', { exact: true }).fill('Lovelace');
    const box = await checkInButton(page).boundingBox();
    if (!box) throw new Error('the Check in button has no box');
    const x = box.x + box.width / 2;
    const y = box.y + box.height / 2;

    await page.mouse.click(x, y);
    // The second tap of the double tap lands on the confirmation, where the button was. It is made as soon as
    // the confirmation is there (a loaded machine may take longer than a finger's 150 ms to save and show it),
    // well inside the confirmation's TAP_GUARD_MS.
    await page.waitForFunction(
      ([px, py]) => document.elementFromPoint(px ?? 0, py ?? 0)?.closest('.confirmation') != null,
      [x, y],
      { polling: 'raf', timeout: 5_000 },
    );
    await page.mouse.click(x, y);
    await sleep(250);
    expect(await page.getByText('Welcome, Ada').isVisible()).toBe(true);
    expect(await localVisits(page)).toBe(1);

    // Past that short moment, a tap anywhere on the confirmation returns home at once (docs/api.md, Decisions beyond the contract).
    await sleep(500);
    const tapped = Date.now();
    await page.mouse.click(x, y);
    await visitorHome(page).waitFor({ timeout: 1_000 });
    expect(Date.now() - tapped).toBeLessThan(1_000);
    expect(await localVisits(page)).toBe(1);

    // The keyboard's double tap: Enter twice submits, then lands on Done, which has the focus by then.
    await checkInButton(page).click();
    await page.getByLabel('First name', { exact: true }).fill('Grace');
    await page.getByLabel('Last name', { exact: true }).fill('Hopper');
    await page.keyboard.press('Enter');
    await page.waitForFunction(() => document.activeElement?.textContent === 'Done', undefined, {
      polling: 'raf',
      timeout: 5_000,
    });
    await page.keyboard.press('Enter');
    await sleep(250);
    expect(await page.getByText('Welcome, Grace').isVisible()).toBe(true);
    expect(await localVisits(page)).toBe(2);
    await context.close();
  }, 40_000);

  it('tells a person already on site so, and lets them check in anyway or go to Check out', async () => {
    const site = await newSite();
    const { context, page } = await open(site);
    await checkInThroughForm(page, 'Ada', 'Lovelace');
    await page.getByRole('button', { name: 'Done' }).click();
    expect(await localVisits(page)).toBe(1);

    // The same name, typed in another case and with spaces around it.
    await checkInButton(page).click();
    await page.getByLabel('First name', { exact: true }).fill(' ada ');
    await page.getByLabel('Last name', { exact: true }).fill('LOVELACE ');
    await checkInButton(page).click();
    const notice = page.getByText(/You have been checked in since \S.*\d{2}/);
    await notice.waitFor();
    expect(await page.getByText('Welcome, ada').count()).toBe(0);
    expect(await localVisits(page)).toBe(1);

    // "Check out" takes them to the check-out screen, where they find their name.
    await page.getByRole('button', { name: 'Check out', exact: true }).click();
    await page.getByLabel('Find your name').waitFor();
    expect(await localVisits(page)).toBe(1);
    await page.getByRole('button', { name: 'Back' }).click();

    // Two people may share a name: "Check in anyway" checks the second one in.
    await checkInButton(page).click();
    await page.getByLabel('First name', { exact: true }).fill('Ada');
    await page.getByLabel('Last name', { exact: true }).fill('Lovelace');
    await checkInButton(page).click();
    await notice.waitFor();
    await page.getByRole('button', { name: 'Check in anyway' }).click();
    await page.getByText('Welcome, Ada').waitFor();
    expect(await localVisits(page)).toBe(2);
    await page.getByRole('button', { name: 'Done' }).click();

    // Another name is not held up.
    await checkInThroughForm(page, 'Grace', 'Hopper');
    expect(await localVisits(page)).toBe(3);
    await context.close();
  }, 40_000);

  it('goes back to the visitor home after a while without input: a chosen person, a half-filled form', async () => {
    const site = await newSite();
    await putCheckinConfig(site, [
      { name: 'firstName', label: 'First name', type: 'text', required: true },
      { name: 'lastName', label: 'Last name', type: 'text', required: true },
      { name: 'email', label: 'Email', type: 'email', required: false },
      { name: 'phone', label: 'Phone', type: 'phone', required: false },
    ]);
    const { context, page } = await open(site, { query: { idle: String(IDLE_MS) } });
    await checkInThroughForm(page, 'Ada', 'Lovelace');
    await page.getByRole('button', { name: 'Done' }).click();

    // A person chosen in Check out, with their Check out button, left for the next visitor.
    await page.getByRole('button', { name: 'Check out', exact: true }).click();
    await page.getByLabel('Find your name').fill('Ada');
    await page.getByRole('button', { name: /^Ada Lovelace/ }).click();
    await page.getByRole('heading', { name: 'Ada Lovelace' }).waitFor();
    await visitorHome(page).waitFor({ timeout: IDLE_MS + 3_000 });
    expect(await page.getByRole('heading', { name: 'Ada Lovelace' }).count()).toBe(0);

    // A half-filled form: still there while the person types, gone once they walk away, and empty after.
    await checkInButton(page).click();
    await page.getByLabel('Email').fill('someone@example.com');
    const phone = page.getByLabel('Phone');
    for (const digit of '0123456') {
      await phone.press(digit);
      await sleep(IDLE_MS / 3);
    }
    expect(await visitorHome(page).count()).toBe(0);
    expect(await phone.inputValue()).toBe('0123456');
    await visitorHome(page).waitFor({ timeout: IDLE_MS + 3_000 });
    await checkInButton(page).click();
    expect(await page.getByLabel('Email').inputValue()).toBe('');
    expect(await page.getByLabel('Phone').inputValue()).toBe('');
    await context.close();
  }, 40_000);

  it('locks Settings again after a while without input', async () => {
    const site = await newSite();
    const { context, page } = await open(site, { query: { idle: String(IDLE_MS) }, pin: '2468' });
    await page.getByRole('button', { name: 'Settings' }).click();
    await page.getByLabel('Settings PIN').fill('2468');
    await page.getByRole('button', { name: 'Unlock' }).click();
    await page.getByRole('heading', { name: 'Kiosk setup' }).waitFor();
    await visitorHome(page).waitFor({ timeout: IDLE_MS + 3_000 });
    await page.getByRole('button', { name: 'Settings' }).click();
    await page.getByRole('heading', { name: 'Settings are locked' }).waitFor();
    expect(await page.getByRole('heading', { name: 'Kiosk setup' }).count()).toBe(0);
    await context.close();
  }, 30_000);

  it('holds each input to what the server accepts, says a value is too long in words, and wraps a long name', async () => {
    const site = await newSite();
    const { context, page } = await open(site);
    await checkInButton(page).click();
    const firstName = page.getByLabel('First name', { exact: true });
    expect(await firstName.getAttribute('maxlength')).toBe('100');
    expect(await page.getByLabel('Last name', { exact: true }).getAttribute('maxlength')).toBe('100');
    expect(await page.getByLabel('Email').getAttribute('maxlength')).toBe('254');
    expect(await page.getByLabel('Company').getAttribute('maxlength')).toBe('200');
    await firstName.fill('A'.repeat(101));
    expect((await firstName.inputValue()).length).toBe(100);

    // A value longer than the limit all the same (an input method that ignores maxlength): a sentence, not zod's words.
    await firstName.evaluate((input) => input.removeAttribute('maxlength'));
    await firstName.fill('A'.repeat(101));
    await page.getByLabel('Last name', { exact: true }).fill('Lovelace');
    await checkInButton(page).click();
    await page.getByText('Please shorten this to 100 characters or fewer.').waitFor();
    expect(await page.locator('main').textContent()).not.toContain('Too big');
    expect(await localVisits(page)).toBe(0);
    await page.getByRole('button', { name: 'Back' }).click();

    // A 100-character name with nowhere to break stays inside the Welcome card and the Check out screens.
    const longName = 'W'.repeat(100);
    await checkInThroughForm(page, longName, 'Lovelace');
    /** How far an element's content reaches past its own box, or past `within`'s, in pixels. */
    const overflow = (selector: string, within: string) =>
      page.evaluate(
        ([inner, outer]) => {
          const element = document.querySelector(inner ?? '');
          const box = element?.closest(outer ?? '');
          if (!element || !box) return -1;
          const past = element.getBoundingClientRect().right - box.getBoundingClientRect().right;
          return Math.max(element.scrollWidth - element.clientWidth, box.scrollWidth - box.clientWidth, past);
        },
        [selector, within],
      );
    expect(await overflow('.confirmation-title', '.confirmation')).toBe(0);
    await page.getByRole('button', { name: 'Done' }).click();
    await page.getByRole('button', { name: 'Check out', exact: true }).click();
    await page.getByLabel('Find your name').fill('WWW');
    await page.locator('.person-name').waitFor();
    expect(await overflow('.person-name', '.person-button')).toBe(0);
    await page.locator('.person-button').click();
    await page.locator('.person-card-name').waitFor();
    expect(await overflow('.person-card-name', '.person-card')).toBe(0);
    // And on the Roll call, the list read out in an evacuation: the name wraps inside the screen's width.
    await page.getByRole('button', { name: 'Roll call' }).click();
    await page.locator('.roll-call .table tbody th').first().waitFor();
    expect(await overflow('.roll-call .table', '.roll-call')).toBe(0);
    await context.close();
  }, 40_000);
});
