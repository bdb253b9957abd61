import fs from 'node:fs/promises';
import path from 'node:path';
import type { Context } from 'koa';

/** Files named by their content's hash: a new build has new names, so they may be kept for a year. */
export const IMMUTABLE = 'public, max-age=31536000, immutable';

/** What every answer of a served web app carries: its own policy, and no sniffing of types. */
export function setAppHeaders(ctx: Context, headers: { csp: string; permissions?: string }): void {
  ctx.set('Content-Security-Policy', headers.csp);
  ctx.set('X-Content-Type-Options', 'nosniff');
  // Addresses carry one-time codes and tokens (?code=, ?token=, a visit code): never in a Referer.
  ctx.set('Referrer-Policy', 'no-referrer');
  if (headers.permissions) ctx.set('Permissions-Policy', headers.permissions);
}

/**
 * Answers with `relative`, a file of the build in `root`, when it is inside the build (no ../ out of it), of
 * a kind the build makes (`types`), and there; false otherwise (the caller passes the request on).
 */
export async function sendBuiltFile(
  ctx: Context,
  build: { root: string; types: Record<string, string> },
  relative: string,
  cacheControl: string,
): Promise<boolean> {
  const file = path.resolve(build.root, relative);
  const type = build.types[path.extname(file)];
  if (!file.startsWith(`${build.root}${path.sep}`) || !type) return false;
  const body = await fs.readFile(file).catch(() => undefined);
  if (!body) return false;
  ctx.type = type;
  ctx.set('Cache-Control', cacheControl);
  ctx.body = body;
  return true;
}

/**
 * Answers with the build's single page (`index.html`, cached as `cacheControl` says), or 503 with
 * `notBuilt` in plain words when there is no build yet.
 */
export async function sendAppPage(
  ctx: Context,
  root: string,
  page: { cacheControl: string; notBuilt: string; status?: number },
): Promise<void> {
  const index = await fs.readFile(path.join(root, 'index.html')).catch(() => undefined);
  if (!index) {
    ctx.status = 503;
    ctx.set('Cache-Control', 'no-store');
    ctx.type = 'text/plain; charset=utf-8';
    ctx.body = `${page.notBuilt}\n`;
    return;
  }
  ctx.set('Cache-Control', page.cacheControl);
  ctx.type = 'text/html; charset=utf-8';
  ctx.body = index;
  if (page.status !== undefined) ctx.status = page.status;
}
