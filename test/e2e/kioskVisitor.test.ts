import type { Browser, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import type { PersonCheckin } from '../../shared/src/schemas/personCheckins';
import { browserAvailable } from '../support/browser';
import { type KioskTestSite, kioskSite } from '../support/factories';
import { putCheckinConfig } from '../support/checkinConfig';
import {
  checkInThroughForm,
  kioskBrowserHooks,
  type KioskWeb,
  openKioskPage,
  outboxCount,
  personAction,
  screenshot,
} from '../support/kioskWeb';
import type { TestServer } from '../support/testServer';

type Site = KioskTestSite;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Every person check-in of the site, as the server has it (oldest first). */
async function serverVisits(site: Site): Promise<PersonCheckin[]> {
  const response = await site.api.get<{ data: PersonCheckin[] }>(`/v1/sites/${site.siteId}/checkins/people?limit=200`);
  expect(response.status).toBe(200);
  return [...response.body.data].reverse();
}

/** Runs `step` and returns the wall-clock window it ran in (the browser shares this machine's clock). */
async function timed(step: () => Promise<void>): Promise<{ from: number; to: number }> {
  const from = Date.now();
  await step();
  return { from, to: Date.now() };
}

function expectWithin(iso: string | null | undefined, window: { from: number; to: number }) {
  expect(iso).toBeTruthy();
  const at = Date.parse(iso ?? '');
  expect(at).toBeGreaterThanOrEqual(window.from - 5);
  expect(at).toBeLessThanOrEqual(window.to + 5);
}

describe.skipIf(!browserAvailable())('kiosk in a real browser: visitor mode', () => {
  let server: TestServer;
  let browser: Browser;
  let web: KioskWeb;

  kioskBrowserHooks((started) => ({ server, browser, web } = started));
  const newSite = () => kioskSite(server, 'Headquarters');

  const open = (site: Site) =>
    openKioskPage(browser, web, {
      serverUrl: server.baseUrl,
      token: site.kioskToken,
      siteId: site.siteId,
      mode: 'visitor',
    });
  const statusBar = (page: Page) => page.getByRole('status');

  it('a whole visit made offline reaches the server once, with its break and the times it happened', async () => {
    const site = await newSite();
    const { context, page } = await open(site);
    await expect.poll(() => statusBar(page).textContent()).toContain('All synced');
    await screenshot(page, 'kiosk-visitor-home');

    await context.setOffline(true);
    await expect.poll(() => statusBar(page).textContent()).toContain('Offline');
    const checkin = await timed(() => checkInThroughForm(page, 'Ada', 'Lovelace'));
    await screenshot(page, 'kiosk-welcome');
    // The confirmation goes home by itself within 5 seconds.
    await page.getByRole('button', { name: 'Check in', exact: true }).waitFor({ timeout: 5_000 });
    await sleep(300);
    const breakStart = await timed(() => personAction(page, 'Break', 'Ada Lovelace', 'Start break'));
    await sleep(300);
    const breakEnd = await timed(() =>
      personAction(page, 'Break', 'Ada Lovelace', 'End break', 'kiosk-find-your-name'),
    );
    await page.getByRole('button', { name: 'Roll call' }).click();
    await page.getByRole('row', { name: /Lovelace, Ada/ }).waitFor();
    await screenshot(page, 'kiosk-roll-call');
    await page.getByRole('button', { name: 'Home' }).click();
    await sleep(300);
    const checkout = await timed(() => personAction(page, 'Check out', 'Ada Lovelace', 'Check out'));
    await expect.poll(() => statusBar(page).textContent()).toContain('4 pending');
    expect(await outboxCount(page)).toBe(4);
    expect(await serverVisits(site)).toEqual([]);

    const online = Date.now();
    await context.setOffline(false);
    await expect.poll(() => statusBar(page).textContent(), { timeout: 15_000 }).toMatch(/Online.*All synced/);
    expect(await outboxCount(page)).toBe(0);

    const visits = await serverVisits(site);
    expect(visits).toHaveLength(1);
    const [visit] = visits;
    expect(visit).toMatchObject({
      status: 'OUT',
      person: { firstName: 'Ada', lastName: 'Lovelace' },
      entry: { source: 'KIOSK' },
      exit: { source: 'KIOSK' },
    });
    expect(visit?.breaks).toHaveLength(1);
    // Each time is when the person pressed the button offline, not when the kiosk came back online.
    expectWithin(visit?.entry.at, checkin);
    expectWithin(visit?.breaks[0]?.startedAt, breakStart);
    expectWithin(visit?.breaks[0]?.endedAt, breakEnd);
    expectWithin(visit?.exit?.at, checkout);
    expect(Date.parse(visit?.exit?.at ?? '')).toBeLessThan(online);
    await context.close();
  }, 60_000);

  it('refuses a required field left empty on screen, and queues nothing', async () => {
    const site = await newSite();
    await putCheckinConfig(site, [
      { name: 'firstName', label: 'First name', type: 'text', required: true },
      { name: 'lastName', label: 'Last name', type: 'text', required: true },
      { name: 'company', label: 'Company', type: 'text', required: false },
      { name: 'email', label: 'Email', type: 'email', required: false },
      { name: 'hostName', label: 'Who are you visiting?', type: 'text', required: true },
      {
        name: 'badge',
        label: 'Visitor type',
        type: 'select',
        required: true,
        options: ['Guest', 'Contractor', 'Delivery'],
      },
      { name: 'safety', label: 'I have read the safety rules', type: 'checkbox', required: true },
    ]);
    const { context, page } = await open(site);
    await page.getByRole('button', { name: 'Check in', exact: true }).click();
    await page.getByLabel('Who are you visiting?').waitFor();
    await page.getByLabel('First name', { exact: true }).fill('Grace');
    await page.getByLabel('Last name', { exact: true }).fill('Hopper');
    await page.getByLabel('Email').fill('grace@');
    await page.getByLabel('Company').focus(); // leaving Email says at once that it is malformed
    await expect.poll(() => page.getByText('Please enter an email address, such as name@example.com.').count()).toBe(1);
    await page.getByLabel('Visitor type').selectOption('Contractor');
    await page.getByRole('button', { name: 'Check in', exact: true }).click();

    // Each field says what to do, in a sentence to the visitor.
    await page.getByText('Please tell us who you are visiting.').waitFor();
    expect(await page.getByText('Please confirm that you have read the safety rules.').count()).toBe(1);
    expect(await page.getByText(/must be accepted|is required/).count()).toBe(0);
    expect(await page.getByLabel('Who are you visiting?').getAttribute('aria-invalid')).toBe('true');
    expect(await page.getByRole('alert').textContent()).toContain('Please correct the 3 fields');
    await screenshot(page, 'kiosk-checkin-form');
    expect(await outboxCount(page)).toBe(0);
    expect(await statusBar(page).textContent()).toContain('All synced');

    // Put right, the same form goes through; the banner follows the fields, and goes once they are all right.
    await page.getByLabel('Email').fill('grace@example.com');
    await expect.poll(() => page.getByRole('alert').textContent()).toContain('Please correct the 2 fields');
    await page.getByLabel('Who are you visiting?').fill('Alan');
    await expect.poll(() => page.getByRole('alert').textContent()).toContain('Please correct the field marked below');
    await page.getByLabel('I have read the safety rules').check();
    await expect.poll(() => page.locator('.form-error').count()).toBe(0);
    await page.getByRole('button', { name: 'Check in', exact: true }).click();
    await page.getByText('Welcome, Grace').waitFor();
    await expect.poll(async () => (await serverVisits(site)).length, { timeout: 10_000 }).toBe(1);
    const visits = await serverVisits(site);
    expect(visits[0]).toMatchObject({ hostName: 'Alan', customFields: { badge: 'Contractor', safety: true } });
    await context.close();
  }, 40_000);
  it('announces each confirmation and never drops focus to the page between steps', async () => {
    const site = await newSite();
    const { context, page } = await open(site);
    /** What has the focus, as a screen reader would name it: the element's tag and its text. */
    const focused = () =>
      page.evaluate(
        () => `${document.activeElement?.tagName ?? 'none'}: ${document.activeElement?.textContent?.trim() ?? ''}`,
      );

    await checkInThroughForm(page, 'Ada', 'Lovelace');
    // The welcome is an alert, so it is read out although focus goes to Done at the same moment.
    const alert = page.getByRole('alert');
    await expect.poll(() => alert.textContent()).toContain('Welcome, Ada');
    expect(await alert.textContent()).toContain('You are checked in.');
    await expect.poll(focused).toBe('BUTTON: Done');
    // Back home by itself: focus is on the first choice, not lost with the Done button.
    await expect.poll(focused, { timeout: 6_000 }).toBe('BUTTON: Check in');

    await page.getByRole('button', { name: 'Break', exact: true }).click();
    await expect.poll(focused).toBe('INPUT: ');
    await page.getByLabel('Find your name').fill('Ada');
    await page.getByRole('button', { name: /^Ada Lovelace/ }).click();
    // The chosen person's card takes the focus from the list button that chose them.
    await expect.poll(focused).toBe('H1: Ada Lovelace');
    await page.getByRole('button', { name: 'Not you? Back to the list' }).click();
    // Waited for, as the card's focus above: the focus moves after the render the click starts.
    await expect.poll(() => page.evaluate(() => document.activeElement?.id)).toBe('find-your-name');
    await page.getByRole('button', { name: 'Back' }).click();
    await expect.poll(focused).toBe('BUTTON: Check in');

    await personAction(page, 'Check out', 'Ada Lovelace', 'Check out');
    await expect.poll(focused).toBe('BUTTON: Check in');
    // The status bar is still the page's one status region.
    expect(await statusBar(page).count()).toBe(1);
    await context.close();
  }, 40_000);

  it('a page reloaded in the middle of syncing loses and duplicates nothing', async () => {
    const site = await newSite();
    const { context, page } = await open(site);
    await context.setOffline(true);
    const names = [
      'Alan Turing',
      'Barbara Liskov',
      'Claude Shannon',
      'Dorothy Vaughan',
      'Edsger Dijkstra',
      'Frances Allen',
    ];
    for (const name of names) {
      const [first, last] = name.split(' ') as [string, string];
      await checkInThroughForm(page, first, last);
      await page.getByRole('button', { name: 'Done' }).click();
    }
    await personAction(page, 'Check out', 'Alan Turing', 'Check out');
    await personAction(page, 'Break', 'Barbara Liskov', 'Start break');
    expect(await outboxCount(page)).toBe(8);

    // The server commits each request, but its answer reaches the page only 1.5 s later: the reload
    // lands while answers are on their way, the worst moment (the server acted, the kiosk never heard).
    let held = 0;
    await context.route(`${server.baseUrl}/**`, async (route) => {
      const response = await route.fetch();
      held += 1;
      await sleep(1_500);
      // The page that asked may be gone: that answer is lost, though the server acted.
      await route.fulfill({ response }).catch(() => undefined);
      held -= 1;
    });
    await context.setOffline(false);
    await expect
      .poll(async () => (await serverVisits(site)).length, { timeout: 10_000, interval: 25 })
      .toBeGreaterThan(0);
    expect(await outboxCount(page)).toBeGreaterThan(0);
    // Answers the server committed and the page has not received: the reload loses them.
    const lostAnswers = held;
    await page.reload();
    await context.unroute(`${server.baseUrl}/**`);

    await expect.poll(() => statusBar(page).textContent(), { timeout: 20_000 }).toMatch(/Online.*All synced/);
    expect(await outboxCount(page)).toBe(0);
    expect(lostAnswers).toBeGreaterThan(0);
    const visits = await serverVisits(site);
    expect(visits.map((visit) => `${visit.person.firstName} ${visit.person.lastName}`).sort()).toEqual(names);
    const byName = new Map(visits.map((visit) => [visit.person.firstName, visit]));
    expect(byName.get('Alan')).toMatchObject({ status: 'OUT' });
    expect(byName.get('Barbara')).toMatchObject({ status: 'ON_BREAK' });
    expect(byName.get('Barbara')?.breaks).toHaveLength(1);
    for (const other of ['Claude', 'Dorothy', 'Edsger', 'Frances'])
      expect(byName.get(other)).toMatchObject({ status: 'IN', breaks: [] });
    await page.getByRole('button', { name: 'Roll call' }).click();
    await expect.poll(() => page.getByRole('row').count()).toBe(6); // header + 5 on site
    await context.close();
  }, 60_000);

  it('confirms a check-in at once with the server unreachable (median over 20 printed)', async () => {
    const site = await newSite();
    const { context, page } = await open(site);
    // The link is up but the server does not answer: the engine keeps trying while people check in.
    await context.route(`${server.baseUrl}/**`, (route) => route.abort('connectionrefused'));
    const samples: number[] = [];
    for (let i = 0; i < 20; i += 1) {
      const firstName = `Visitor${i}`;
      await page.getByRole('button', { name: 'Check in', exact: true }).click();
      await page.getByLabel('First name', { exact: true }).fill(firstName);
      await page.getByLabel('Last name', { exact: true }).fill('Timing');
      // Timed inside the page, from the click to the confirmation in the DOM, so Playwright's own round
      // trips are not counted.
      samples.push(
        await page.evaluate(
          (expected) =>
            new Promise<number>((resolve) => {
              const submit = [...document.querySelectorAll('button')].find(
                (button) => button.textContent === 'Check in' && button.type === 'submit',
              );
              const started = performance.now();
              const observer = new MutationObserver(() => {
                if (document.body.textContent?.includes(expected)) {
                  observer.disconnect();
                  resolve(performance.now() - started);
                }
              });
              observer.observe(document.body, { childList: true, subtree: true, characterData: true });
              submit?.click();
            }),
          `Welcome, ${firstName}`,
        ),
      );
      await page.getByRole('button', { name: 'Done' }).click();
    }
    await expect.poll(() => statusBar(page).textContent()).toMatch(/Offline.*20 pending/);
    const sorted = [...samples].sort((a, b) => a - b);
    const median = ((sorted[9] ?? 0) + (sorted[10] ?? 0)) / 2;
    console.log(
      `kiosk: Check in → "Welcome" with the server unreachable: median ${median.toFixed(1)} ms, ` +
        `p90 ${(sorted[17] ?? 0).toFixed(1)} ms, max ${(sorted[19] ?? 0).toFixed(1)} ms over ${samples.length} check-ins`,
    );
    await context.close();
  }, 60_000);
});
