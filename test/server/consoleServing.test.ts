import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureConsoleBuild } from '../../server/src/console/build';
import { expectAppPage, expectHashedScript, expectNotServed, scriptOfBuild } from '../support/appServing';
import { builtConsole } from '../support/consoleBuild';
import { serverForFile } from '../support/serverAndWorld';

const file = serverForFile();
let assetPath = '';

beforeAll(async () => {
  const { dir } = await builtConsole();
  assetPath = await scriptOfBuild(dir, /src="(\/console\/assets\/[^"]+\.js)"/);
}, 120_000);

const get = (urlPath: string) => fetch(`${file.server.baseUrl}${urlPath}`);

describe('the console served at /console', () => {
  it('answers every page path with index.html, uncached, under a CSP', async () => {
    for (const urlPath of [
      '/console',
      '/console/',
      '/console/on-site',
      '/console/setup?code=abc',
      '/console/no/such/page',
    ]) {
      const response = await get(urlPath);
      expect(response.status, urlPath).toBe(200);
      const page = await expectAppPage(response, urlPath, {
        cacheControl: 'no-store',
        policy: ["script-src 'self'", "frame-ancestors 'none'"],
      });
      expect(page).toContain('<div id="root"></div>');
    }
  });

  it('serves hashed assets for a year, and nothing outside the build', async () => {
    expectHashedScript(await get(assetPath));
    await expectNotServed(get, [
      '/console/assets/missing-123.js',
      '/console/assets/..%2f..%2fpackage.json',
      '/console/assets/../../package.json',
      // Not the console: the API is unaffected.
      '/consoles',
    ]);
    expect((await fetch(`${file.server.baseUrl}/console`, { method: 'POST' })).status).not.toBe(200);
  });
});

describe('the console build', () => {
  const outDir = path.join(os.tmpdir(), `gatehouse-console-${process.pid}`);
  afterAll(() => fs.rm(outDir, { recursive: true, force: true }));

  it('builds when missing, then not again until a source is newer than its stamp', async () => {
    const [first, second] = await Promise.all([ensureConsoleBuild(outDir), ensureConsoleBuild(outDir)]);
    // Two at once: one builds, the other waits for its lock and finds the build fresh.
    expect([first.built, second.built].sort()).toEqual([false, true]);
    expect((await ensureConsoleBuild(outDir)).built).toBe(false);
    const stamp = Number(await fs.readFile(path.join(outDir, '.built-from'), 'utf8'));
    await fs.writeFile(path.join(outDir, '.built-from'), String(stamp - 1));
    expect((await ensureConsoleBuild(outDir)).built).toBe(true);
  }, 120_000);
});
