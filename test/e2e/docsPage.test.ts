import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { browserAvailable, launchChromium } from '../support/browser';
import { type TestServer, startTestServer } from '../support/testServer';

describe.skipIf(!browserAvailable())('GET /docs in a real browser', () => {
  let server: TestServer;
  let browser: Browser;

  beforeAll(async () => {
    server = await startTestServer();
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  it('renders the API reference from /v1/openapi.json with no request leaving this machine', async () => {
    const page = await browser.newPage();
    const external: string[] = [];
    page.on('request', (request) => {
      if (!request.url().startsWith(server.baseUrl) && !request.url().startsWith('data:')) external.push(request.url());
    });
    await page.goto(`${server.baseUrl}/docs`);
    await page.getByText('/sites/{siteId}/checkins/people/{checkinId}/breaks/start').first().waitFor({ timeout: 15_000 });
    const text = await page.textContent('body');
    expect(text).toContain('Create a person check-in');
    expect(text).toContain('/checkins/people/search');
    expect(external).toEqual([]);
    await page.close();
  });
});
