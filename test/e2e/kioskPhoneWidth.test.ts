import type { Browser, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { browserAvailable } from '../support/browser';
import { forgetCachedFormVersions, putCheckinConfig, requireBadgeNumber } from '../support/checkinConfig';
import { kioskSite } from '../support/factories';
import { kioskBrowserHooks, type KioskWeb, openKioskPage, screenshot, storeCount } from '../support/kioskWeb';
import type { TestServer } from '../support/testServer';

/**
 * What is wrong with the page's layout at this size: the page scrolling sideways, and headings with a
 * word broken across lines (each word of a heading, but a person's name, must sit on one line).
 */
function layoutProblems(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const problems: string[] = [];
    const { scrollWidth } = document.documentElement;
    if (scrollWidth > window.innerWidth) problems.push(`scrollWidth ${scrollWidth} > ${window.innerWidth}`);
    // The screen scrolls on its own (the bars stay): it must not scroll sideways either, nor its cards clip.
    for (const box of document.querySelectorAll('main, main *')) {
      // (A visually hidden box, 1 px wide for screen readers, is not a screen part.)
      if (
        box.clientWidth > 1 &&
        box.scrollWidth > box.clientWidth + 1 &&
        getComputedStyle(box).overflowX !== 'visible'
      ) {
        problems.push(`${box.className || box.tagName} scrolls sideways (${box.scrollWidth} > ${box.clientWidth})`);
      }
    }
    for (const heading of document.querySelectorAll('h1, h2, .tile-label, .screen-title')) {
      const walker = document.createTreeWalker(heading, NodeFilter.SHOW_TEXT);
      for (let node = walker.nextNode(); node; node = walker.nextNode()) {
        if (node.parentElement?.closest('.title-name, .person-name, .person-card-name')) continue;
        const text = node.textContent ?? '';
        for (const match of text.matchAll(/\S+/g)) {
          const range = document.createRange();
          range.setStart(node, match.index);
          range.setEnd(node, match.index + match[0].length);
          const lines = new Set([...range.getClientRects()].map((rect) => Math.round(rect.top)));
          if (lines.size > 1) problems.push(`"${match[0]}" broken in "${heading.textContent}"`);
        }
      }
    }
    return problems;
  });
}

describe.skipIf(!browserAvailable())('kiosk in a real browser: phone widths', () => {
  let server: TestServer;
  let browser: Browser;
  let web: KioskWeb;

  kioskBrowserHooks((started) => ({ server, browser, web } = started));

  for (const size of [
    { width: 360, height: 640 },
    { width: 390, height: 844 },
  ]) {
    it(`every visitor screen fits ${size.width}×${size.height} without sideways scrolling or broken words`, async () => {
      const site = await kioskSite(server, 'Headquarters');
      await putCheckinConfig(site, [
        { name: 'firstName', label: 'First name', type: 'text', required: true },
        { name: 'lastName', label: 'Last name', type: 'text', required: true },
        { name: 'company', label: 'Company', type: 'text', required: false },
        { name: 'email', label: 'Email', type: 'email', required: false },
        { name: 'hostName', label: 'Who are you visiting?', type: 'text', required: true },
        { name: 'safety', label: 'I have read the safety rules', type: 'checkbox', required: true },
      ]);
      await site.api.post('/v1/watchlist/people', { firstName: 'Mallory', lastName: 'Mole' });
      const { context, page } = await openKioskPage(browser, web, {
        serverUrl: server.baseUrl,
        token: site.kioskToken,
        siteId: site.siteId,
        mode: 'visitor',
      });
      await page.setViewportSize(size);
      const at = `${size.width}x${size.height}`;
      const problems: string[] = [];
      const check = async (name: string) => {
        await screenshot(page, `kiosk-phone-${at}-${name}`);
        problems.push(...(await layoutProblems(page)).map((problem) => `${name}: ${problem}`));
      };
      await expect.poll(() => storeCount(page, 'watchlistDigests'), { timeout: 10_000 }).toBe(1);
      await expect.poll(() => storeCount(page, 'siteConfigs'), { timeout: 10_000 }).toBe(1);

      await check('home');
      await page.getByRole('button', { name: 'Check in', exact: true }).click();
      await page.getByLabel('Who are you visiting?').waitFor();
      await page.getByLabel('Email').fill('not-an-email');
      await page.getByRole('button', { name: 'Check in', exact: true }).click();
      await page.getByText('Please confirm that you have read the safety rules.').waitFor();
      await check('form');
      await page.getByRole('button', { name: 'Back' }).click();

      await page.getByRole('button', { name: 'Check in', exact: true }).click();
      await page.getByLabel('First name', { exact: true }).fill('Bartholomew');
      await page.getByLabel('Last name', { exact: true }).fill('Featherstonehaugh');
      await page.getByLabel('Who are you visiting?').fill('Alan');
      await page.getByLabel('I have read the safety rules').check();
      await page.getByRole('button', { name: 'Check in', exact: true }).click();
      await page.getByText('Welcome, Bartholomew').waitFor();
      await check('confirmation');
      await page.getByRole('button', { name: 'Done' }).click();

      await page.getByRole('button', { name: 'Check in', exact: true }).click();
      await page.getByLabel('First name', { exact: true }).fill('Mallory');
      await page.getByLabel('Last name', { exact: true }).fill('Mole');
      await page.getByLabel('Who are you visiting?').fill('Alan');
      await page.getByLabel('I have read the safety rules').check();
      await page.getByRole('button', { name: 'Check in', exact: true }).click();
      await page.getByRole('heading', { name: 'Please see reception' }).waitFor();
      await check('see-reception');
      await page.getByRole('button', { name: 'Done' }).click();

      await page.getByRole('button', { name: 'Check out', exact: true }).click();
      await page.getByLabel('Find your name').fill('Bart');
      await check('find-your-name');
      await page.getByRole('button', { name: /^Bartholomew/ }).click();
      await page.getByRole('button', { name: 'Start break' }).waitFor();
      await check('find-your-name-chosen');

      await page.getByRole('button', { name: 'Roll call' }).click();
      await page.getByRole('row', { name: /Featherstonehaugh/ }).waitFor();
      await check('roll-call');

      // A check-in the server refuses (the site now wants a badge number the cached form lacks, and that copy
      // names no version: the server checks its current form).
      await forgetCachedFormVersions(page);
      await requireBadgeNumber(site);
      await page.getByRole('button', { name: 'Home' }).click();
      await page.getByRole('button', { name: 'Check in', exact: true }).click();
      await page.getByLabel('First name', { exact: true }).fill('Rosa');
      await page.getByLabel('Last name', { exact: true }).fill('Parks');
      await page.getByLabel('Who are you visiting?').fill('Alan');
      await page.getByLabel('I have read the safety rules').check();
      await page.getByRole('button', { name: 'Check in', exact: true }).click();
      await page.getByText('Welcome, Rosa').waitFor();
      await page.getByRole('button', { name: 'Done' }).click();
      await expect
        .poll(() => page.getByRole('status').textContent(), { timeout: 10_000 })
        .toContain('1 needs attention');
      await page.getByRole('button', { name: 'Needs attention' }).click();
      await page.getByRole('button', { name: 'Discard' }).waitFor();
      await check('needs-attention');
      await page.getByRole('button', { name: 'Discard' }).click();
      await page.getByRole('dialog').waitFor();
      await check('discard-dialog');
      expect(problems).toEqual([]);
      await context.close();
    }, 60_000);
  }
});
