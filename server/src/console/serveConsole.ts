import fs from 'node:fs/promises';
import path from 'node:path';
import type { Middleware } from 'koa';

/**
 * Only the console's own scripts and styles, talking to this origin's API; never framed. Its one frame is a
 * badge being printed (a blob of the PDF: shared/src/client/printFrame.ts).
 */
const CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
  'frame-src blob:',
].join('; ');

const TYPES: Record<string, string> = {
  '.js': 'application/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
  '.json': 'application/json; charset=utf-8',
};

const isConsolePath = (urlPath: string) => urlPath === '/console' || urlPath.startsWith('/console/');

/**
 * GET /console and /console/*: the built staff console (dist/console). Hashed files under assets/ are cached
 * for a year; every other path is the single page's index.html, never cached, so a new build shows at once.
 */
export function serveConsole(dir: string): Middleware {
  const root = path.resolve(dir);
  return async (ctx, next) => {
    if (!isConsolePath(ctx.path)) return next();
    if (ctx.method !== 'GET' && ctx.method !== 'HEAD') return next();
    ctx.state.route = '/console/*';
    ctx.set('Content-Security-Policy', CONTENT_SECURITY_POLICY);
    ctx.set('X-Content-Type-Options', 'nosniff');
    // One-time links carry their code in the query: it must not leave in a Referer.
    ctx.set('Referrer-Policy', 'no-referrer');
    if (ctx.path.startsWith('/console/assets/')) {
      const file = path.resolve(root, `.${ctx.path.slice('/console'.length)}`);
      const type = TYPES[path.extname(file)];
      // Inside the build only (no ../ out of it), and only the kinds of file a build makes.
      if (!file.startsWith(`${root}${path.sep}`) || !type) return next();
      const body = await fs.readFile(file).catch(() => undefined);
      if (!body) return next();
      ctx.type = type;
      ctx.set('Cache-Control', 'public, max-age=31536000, immutable');
      ctx.body = body;
      return;
    }
    const index = await fs.readFile(path.join(root, 'index.html')).catch(() => undefined);
    ctx.set('Cache-Control', 'no-store');
    if (!index) {
      ctx.status = 503;
      ctx.type = 'text/plain; charset=utf-8';
      ctx.body = 'The console is not built yet: run `npm run console:build` (npm start builds it).\n';
      return;
    }
    ctx.type = 'text/html; charset=utf-8';
    ctx.body = index;
  };
}
