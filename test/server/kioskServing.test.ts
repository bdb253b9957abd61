import fs from 'node:fs/promises';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { builtKiosk } from '../support/kioskBuild';
import { serverForFile } from '../support/serverAndWorld';

// The kiosk's production build at /kiosk (server/src/kioskApp/serveKiosk.ts): the headers a service worker
// and an installable app need, and nothing outside the build.

const file = serverForFile();
let scriptPath = '';
let wasmPath = '';

beforeAll(async () => {
  const { dir } = await builtKiosk();
  const index = await fs.readFile(path.join(dir, 'index.html'), 'utf8');
  scriptPath = /src="\.\/(assets\/[^"]+\.js)"/.exec(index)?.[1] ?? '';
  expect(scriptPath).not.toBe('');
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
      expect(response.headers.get('content-type')).toMatch(/^text\/html/);
      expect(response.headers.get('cache-control')).toBe('no-cache');
      const policy = response.headers.get('content-security-policy') ?? '';
      expect(policy).toContain("script-src 'self' 'wasm-unsafe-eval'");
      expect(policy).toContain("frame-ancestors 'none'");
      expect(policy).toContain("worker-src 'self'");
      expect(response.headers.get('referrer-policy')).toBe('no-referrer');
      expect(response.headers.get('permissions-policy')).toContain('camera=(self)');
      const html = await response.text();
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
    const script = await get(`/kiosk/${scriptPath}`);
    expect(script.status).toBe(200);
    expect(script.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    const wasm = await get(`/kiosk/assets/${wasmPath}`);
    // application/wasm, or WebAssembly.instantiateStreaming refuses it.
    expect(wasm.headers.get('content-type')).toBe('application/wasm');
    expect(wasm.headers.get('cache-control')).toContain('immutable');
    const icon = await get('/kiosk/icons/icon-512.png');
    expect(icon.headers.get('content-type')).toBe('image/png');
    expect(icon.headers.get('cache-control')).toBe('no-cache');
  });

  it('serves nothing outside the build, nor source maps, and leaves other paths to the API', async () => {
    expect((await get('/kiosk/assets/missing-123.js')).status).toBe(404);
    expect((await get(`/kiosk/${scriptPath}.map`)).status).toBe(404);
    // Not the build's stamp: a path without an extension is the page.
    expect((await get('/kiosk/.built-from')).headers.get('content-type')).toMatch(/^text\/html/);
    expect((await get('/kiosk/..%2f..%2fpackage.json')).status).toBe(404);
    expect((await get('/kiosk/assets/../../../package.json')).status).toBe(404);
    expect((await get('/kiosks')).status).toBe(404);
    expect((await get('/kiosk/', { method: 'POST' })).status).not.toBe(200);
  });
});
