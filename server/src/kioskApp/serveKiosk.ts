import path from 'node:path';
import type { Middleware } from 'koa';
import { IMMUTABLE, sendAppPage, sendBuiltFile, setAppHeaders } from '../webApps/builtFiles';

/**
 * Only the kiosk's own scripts (and its QR decoder's WebAssembly), any Gatehouse server for the API (the
 * setup screen may pair it with another server than the one it came from), the camera shown in a <video>,
 * the badge PDFs it prints in a frame of their own (blobs), never framed itself.
 */
const CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "script-src 'self' 'wasm-unsafe-eval'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: blob:",
  "media-src 'self' blob: mediastream:",
  'connect-src *',
  "worker-src 'self'",
  'frame-src blob:',
  "manifest-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

const BUILD_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'application/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.wasm': 'application/wasm',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
  '.json': 'application/json; charset=utf-8',
  '.webmanifest': 'application/manifest+json; charset=utf-8',
};

/** Everything else (the page, the service worker, the manifest, the icons): asked again each time. */
const REVALIDATE = 'no-cache';

/**
 * GET /kiosk/*: the kiosk's production build (dist/kiosk/renderer) as an installable web app. Hashed files
 * under assets/ are cached for a year; the page, the service worker (sw.js, which the browser compares byte
 * by byte to find an update), the manifest and the icons are revalidated on every request. A path without a
 * file extension is the page itself; /kiosk redirects to /kiosk/, whose relative asset paths need the slash.
 */
export function serveKiosk(dir: string): Middleware {
  const build = { root: path.resolve(dir), types: BUILD_TYPES };
  return async (ctx, next) => {
    const isKioskPath = ctx.path === '/kiosk' || ctx.path.startsWith('/kiosk/');
    if (!isKioskPath || (ctx.method !== 'GET' && ctx.method !== 'HEAD')) {
      await next();
      return;
    }
    ctx.state.route = '/kiosk/*';
    if (ctx.path === '/kiosk') {
      ctx.status = 308;
      ctx.redirect(`/kiosk/${ctx.search}`);
      return;
    }
    setAppHeaders(ctx, { csp: CONTENT_SECURITY_POLICY, permissions: 'camera=(self), microphone=(), geolocation=()' });
    const relative = ctx.path.slice('/kiosk/'.length);
    if (path.extname(relative) !== '') {
      const cacheControl = relative.startsWith('assets/') ? IMMUTABLE : REVALIDATE;
      if (!(await sendBuiltFile(ctx, build, relative, cacheControl))) await next();
      return;
    }
    await sendAppPage(ctx, build.root, {
      cacheControl: REVALIDATE,
      notBuilt: 'The kiosk is not built yet: npm start builds it (or `npx vite build --config kiosk/vite.config.ts`).',
    });
  };
}
