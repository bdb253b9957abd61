import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { browserAvailable, launchChromium } from '../support/browser';
import { serverForFile } from '../support/serverAndWorld';

describe.skipIf(!browserAvailable())('GET /docs in a real browser', () => {
  const harness = serverForFile();
  let browser: Browser;

  beforeAll(async () => {
    browser = await launchChromium();
  });
  afterAll(async () => browser?.close());

  it('renders the API reference from /v1/openapi.json with no request leaving this machine', async () => {
    const { server } = harness;
    const page = await browser.newPage();
    const external: string[] = [];
    page.on('request', (request) => {
      if (!request.url().startsWith(server.baseUrl) && !request.url().startsWith('data:')) external.push(request.url());
    });
    await page.goto(`${server.baseUrl}/docs`);
    // Every group is listed, closed; opening one shows its operations.
    const groups = page.locator('h3.opblock-tag');
    await expect.poll(() => groups.count(), { timeout: 15_000 }).toBeGreaterThan(20);
    await page.locator('h3.opblock-tag[data-tag="Person check-ins"]').click();
    await page
      .getByText('/sites/{siteId}/checkins/people/{checkinId}/breaks/start')
      .first()
      .waitFor({ timeout: 15_000 });
    const text = await page.textContent('body');
    expect(text).toContain('Create a person check-in');
    expect(text).toContain('/checkins/people/search');
    expect(external).toEqual([]);
    await page.close();
  });
});
