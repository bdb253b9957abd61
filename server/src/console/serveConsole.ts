import path from 'node:path';
import type { Middleware } from 'koa';
import { IMMUTABLE, sendAppPage, sendBuiltFile, setAppHeaders } from '../webApps/builtFiles';

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

const BUILD_TYPES: Record<string, string> = {
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
  const build = { root: path.resolve(dir), types: BUILD_TYPES };
  return async (ctx, next) => {
    if (!isConsolePath(ctx.path) || (ctx.method !== 'GET' && ctx.method !== 'HEAD')) {
      await next();
      return;
    }
    ctx.state.route = '/console/*';
    setAppHeaders(ctx, { csp: CONTENT_SECURITY_POLICY });
    if (ctx.path.startsWith('/console/assets/')) {
      if (!(await sendBuiltFile(ctx, build, `.${ctx.path.slice('/console'.length)}`, IMMUTABLE))) await next();
      return;
    }
    await sendAppPage(ctx, build.root, {
      cacheControl: 'no-store',
      notBuilt: 'The console is not built yet: run `npm run console:build` (npm start builds it).',
    });
  };
}
