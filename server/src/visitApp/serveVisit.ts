import fs from 'node:fs/promises';
import path from 'node:path';
import type { Middleware } from 'koa';
import { VisitCode } from '../../../shared/src/schemas/visit';
import { type Executor, queryOne } from '../db/query';
import { sql } from '../db/sql';

/**
 * Only the page's own script and styles, talking to this origin's API; no frames, never framed, no form
 * posted anywhere. The visit key lives in the page's storage: no other origin's script may run here.
 */
const CONTENT_SECURITY_POLICY = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

const TYPES: Record<string, string> = {
  '.js': 'application/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.woff2': 'font/woff2',
};

const isInUse = async (db: Executor, code: string) =>
  VisitCode.safeParse(code).success &&
  (await queryOne<{ id: number }>(db, sql`SELECT id FROM sites WHERE visit_code = ${code}`, { prepare: true })) !==
    undefined;

/**
 * GET /visit/{code}: the visitor's phone page (dist/visit), the same page for every code (it reads the
 * code from its address); 404 for a code not in use (unknown or rotated), whose page says to ask
 * reception. Hashed files under /visit/assets/ are cached for a year; the page never.
 */
export function serveVisit(dir: string, db: Executor): Middleware {
  const root = path.resolve(dir);
  return async (ctx, next) => {
    if (!ctx.path.startsWith('/visit/') || (ctx.method !== 'GET' && ctx.method !== 'HEAD')) {
      await next();
      return;
    }
    ctx.state.route = '/visit/*';
    ctx.set('Content-Security-Policy', CONTENT_SECURITY_POLICY);
    ctx.set('X-Content-Type-Options', 'nosniff');
    ctx.set('Referrer-Policy', 'no-referrer');
    ctx.set('Permissions-Policy', 'camera=(), microphone=(), geolocation=()');
    if (ctx.path.startsWith('/visit/assets/')) {
      const file = path.resolve(root, `.${ctx.path.slice('/visit'.length)}`);
      const type = TYPES[path.extname(file)];
      // Inside the build only (no ../ out of it), and only the kinds of file a build makes.
      const body =
        file.startsWith(`${root}${path.sep}`) && type ? await fs.readFile(file).catch(() => undefined) : undefined;
      if (!body || !type) {
        await next();
        return;
      }
      ctx.type = type;
      ctx.set('Cache-Control', 'public, max-age=31536000, immutable');
      ctx.body = body;
      return;
    }
    const code = ctx.path.slice('/visit/'.length).replace(/\/+$/, '');
    if (code.includes('/')) {
      await next();
      return;
    }
    const index = await fs.readFile(path.join(root, 'index.html')).catch(() => undefined);
    ctx.set('Cache-Control', 'no-store');
    if (!index) {
      ctx.status = 503;
      ctx.type = 'text/plain; charset=utf-8';
      ctx.body = 'This page is not built yet: npm start builds it.\n';
      return;
    }
    ctx.status = (await isInUse(db, code.toUpperCase())) ? 200 : 404;
    ctx.type = 'text/html; charset=utf-8';
    ctx.body = index;
  };
}
