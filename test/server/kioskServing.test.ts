import fs from 'node:fs/promises';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { builtKiosk } from '../support/kioskBuild';
import { expectAppPage, expectHashedScript, expectNotServed, scriptOfBuild } from '../support/appServing';
import { serverForFile } from '../support/serverAndWorld';

// The kiosk's production build at /kiosk (server/src/kioskApp/serveKiosk.ts): the headers a service worker
// and an installable app need, and nothing outside the build.

const file = serverForFile();
let scriptPath = '';
let wasmPath = '';

beforeAll(async () => {
  const { dir } = await builtKiosk();
  scriptPath = await scriptOfBuild(dir, /src="\.\/(assets\/[^"]+\.js)"/);
  wasmPath = (await fs.readdir(path.join(dir, 'assets'))).find((name) => name.endsWith('.wasm')) ?? '';
  expect(wasmPath).not.toBe('');
}, 180_000);

const get = (urlPath: string, init?: RequestInit) =>
  fetch(`${file.server.baseUrl}${urlPath}`, { redirect: 'manual', ...init });

describe('the kiosk served at /kiosk', () => {
  it('sends /kiosk to /kiosk/, keeping the query, and answers page paths with index.html, revalidated', async () => {
    const bare = await get('/kiosk?server=x&code=ABCD2345');
    expect(bare.status).toBe(308);
    expect(bare.headers.get('location')).toBe('/kiosk/?server=x&code=ABCD2345');
    for (const urlPath of ['/kiosk/', '/kiosk/?code=ABCD2345', '/kiosk/index.html', '/kiosk/anything']) {
      const response = await get(urlPath);
      expect(response.status, urlPath).toBe(200);
      expect(response.headers.get('permissions-policy')).toContain('camera=(self)');
      const html = await expectAppPage(response, urlPath, {
        cacheControl: 'no-cache',
        policy: ["script-src 'self' 'wasm-unsafe-eval'", "frame-ancestors 'none'", "worker-src 'self'"],
      });
      expect(html).toContain('<link rel="manifest" href="./manifest.webmanifest">');
      // No pinch-zoom lock.
      const viewport = /<meta name="viewport" content="([^"]*)"/.exec(html)?.[1];
      expect(viewport).toBe('width=device-width, initial-scale=1');
    }
  });

  it('has the service worker and the manifest revalidated, and hashed assets kept for a year', async () => {
    const worker = await get('/kiosk/sw.js');
    expect(worker.status).toBe(200);
    expect(worker.headers.get('content-type')).toMatch(/^application\/javascript/);
    expect(worker.headers.get('cache-control')).toBe('no-cache');
    const manifest = await get('/kiosk/manifest.webmanifest');
    expect(manifest.headers.get('content-type')).toMatch(/^application\/manifest\+json/);
    expect(manifest.headers.get('cache-control')).toBe('no-cache');
    expectHashedScript(await get(`/kiosk/${scriptPath}`));
    const wasm = await get(`/kiosk/assets/${wasmPath}`);
    // application/wasm, or WebAssembly.instantiateStreaming refuses it.
    expect(wasm.headers.get('content-type')).toBe('application/wasm');
    expect(wasm.headers.get('cache-control')).toContain('immutable');
    const icon = await get('/kiosk/icons/icon-512.png');
    expect(icon.headers.get('content-type')).toBe('image/png');
    expect(icon.headers.get('cache-control')).toBe('no-cache');
  });

  it('serves nothing outside the build, nor source maps, and leaves other paths to the API', async () => {
    await expectNotServed(get, [
      '/kiosk/assets/missing-123.js',
      `/kiosk/${scriptPath}.map`,
      '/kiosk/..%2f..%2fpackage.json',
      '/kiosk/assets/../../../package.json',
      '/kiosks',
    ]);
    // Not the build's stamp: a path without an extension is the page.
    expect((await get('/kiosk/.built-from')).headers.get('content-type')).toMatch(/^text\/html/);
    expect((await get('/kiosk/', { method: 'POST' })).status).not.toBe(200);
  });
});
