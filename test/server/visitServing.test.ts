import { beforeAll, describe, expect, it } from 'vitest';
import { expectAppPage, expectHashedScript, expectNotServed, scriptOfBuild } from '../support/appServing';
import { serverAndWorld } from '../support/serverAndWorld';
import { builtVisitPage } from '../support/visitBuild';
import { visitCodeOf } from '../support/visitPhone';

const harness = serverAndWorld();
let assetPath = '';

beforeAll(async () => {
  assetPath = await scriptOfBuild(await builtVisitPage(), /src="(\/visit\/assets\/[^"]+\.js)"/);
}, 120_000);

const get = (urlPath: string) => fetch(`${harness.server.baseUrl}${urlPath}`);

describe('the phone page served at /visit/{code}', () => {
  it('is the page for a code in use, uncached, under its own policy; the same page says 404 otherwise', async () => {
    const code = await visitCodeOf(harness.world.api, harness.world.siteId);
    for (const [urlPath, status] of [
      [`/visit/${code}`, 200],
      [`/visit/${code.toLowerCase()}/`, 200],
      ['/visit/NOSUCHCODE', 404],
    ] as const) {
      const response = await get(urlPath);
      expect(response.status, urlPath).toBe(status);
      expect(response.headers.get('permissions-policy')).toBe('camera=(), microphone=(), geolocation=()');
      const page = await expectAppPage(response, urlPath, { cacheControl: 'no-store', policy: ["default-src 'none'"] });
      expect(page).toContain('<div id="root"></div>');
    }
  });

  it('serves hashed assets for a year, and nothing outside the build', async () => {
    expectHashedScript(await get(assetPath));
    await expectNotServed(get, [
      '/visit/assets/missing-123.js',
      '/visit/assets/..%2f..%2fpackage.json',
      '/visit/assets/../../package.json',
      '/visit/ABC/more',
      '/visit',
    ]);
  });
});
