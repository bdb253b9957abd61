import fs from 'node:fs/promises';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { serverAndWorld } from '../support/serverAndWorld';
import { builtVisitPage } from '../support/visitBuild';
import { visitCodeOf } from '../support/visitPhone';

const harness = serverAndWorld();
let assetPath = '';

beforeAll(async () => {
  const dir = await builtVisitPage();
  const index = await fs.readFile(path.join(dir, 'index.html'), 'utf8');
  assetPath = /src="(\/visit\/assets\/[^"]+\.js)"/.exec(index)?.[1] ?? '';
  expect(assetPath).not.toBe('');
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
      expect(response.headers.get('content-type')).toMatch(/^text\/html/);
      expect(response.headers.get('cache-control')).toBe('no-store');
      expect(response.headers.get('content-security-policy')).toContain("default-src 'none'");
      expect(response.headers.get('permissions-policy')).toBe('camera=(), microphone=(), geolocation=()');
      expect(response.headers.get('referrer-policy')).toBe('no-referrer');
      expect(await response.text()).toContain('<div id="root"></div>');
    }
  });

  it('serves hashed assets for a year, and nothing outside the build', async () => {
    const asset = await get(assetPath);
    expect(asset.status).toBe(200);
    expect(asset.headers.get('content-type')).toMatch(/^application\/javascript/);
    expect(asset.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect((await get('/visit/assets/missing-123.js')).status).toBe(404);
    expect((await get('/visit/assets/..%2f..%2fpackage.json')).status).toBe(404);
    expect((await get('/visit/assets/../../package.json')).status).toBe(404);
    expect((await get('/visit/ABC/more')).status).toBe(404);
    expect((await get('/visit')).status).toBe(404);
  });
});
