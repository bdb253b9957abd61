import fs from 'node:fs/promises';
import path from 'node:path';
import { expect } from 'vitest';

/** The script a built app's index.html loads (the first match of `script`'s group), which must be there. */
export async function scriptOfBuild(dir: string, script: RegExp): Promise<string> {
  const index = await fs.readFile(path.join(dir, 'index.html'), 'utf8');
  const found = script.exec(index)?.[1] ?? '';
  expect(found, `a script in ${dir}/index.html`).not.toBe('');
  return found;
}

/** How a web app's page (console, phone page, kiosk) is answered: its caching and policy parts. */
export interface AppPageHeaders {
  cacheControl: string;
  /** What the Content-Security-Policy must contain. */
  policy: readonly string[];
}

/** Checks a response is the app's page (HTML, `headers`' caching and policy, no referrer); its text. */
export async function expectAppPage(response: Response, urlPath: string, headers: AppPageHeaders): Promise<string> {
  expect(response.headers.get('content-type'), urlPath).toMatch(/^text\/html/);
  expect(response.headers.get('cache-control'), urlPath).toBe(headers.cacheControl);
  const policy = response.headers.get('content-security-policy') ?? '';
  for (const part of headers.policy) expect(policy, urlPath).toContain(part);
  expect(response.headers.get('referrer-policy'), urlPath).toBe('no-referrer');
  return response.text();
}

/** Checks a hashed script of a build is served as JavaScript and kept for a year. */
export function expectHashedScript(response: Response): void {
  expect(response.status).toBe(200);
  expect(response.headers.get('content-type')).toMatch(/^application\/javascript/);
  expect(response.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
}

/** Checks each path is a 404: a missing asset, a way out of the build, a path that is not the app's. */
export async function expectNotServed(get: (urlPath: string) => Promise<Response>, paths: readonly string[]) {
  for (const urlPath of paths) expect((await get(urlPath)).status, urlPath).toBe(404);
}
