import path from 'node:path';
import type { Middleware } from 'koa';
import { IMMUTABLE, sendAppPage, sendBuiltFile, setAppHeaders } from '../webApps/builtFiles';
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

const BUILD_TYPES: Record<string, string> = {
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
  const build = { root: path.resolve(dir), types: BUILD_TYPES };
  return async (ctx, next) => {
    if (!ctx.path.startsWith('/visit/') || (ctx.method !== 'GET' && ctx.method !== 'HEAD')) {
      await next();
      return;
    }
    ctx.state.route = '/visit/*';
    setAppHeaders(ctx, { csp: CONTENT_SECURITY_POLICY, permissions: 'camera=(), microphone=(), geolocation=()' });
    if (ctx.path.startsWith('/visit/assets/')) {
      if (!(await sendBuiltFile(ctx, build, `.${ctx.path.slice('/visit'.length)}`, IMMUTABLE))) await next();
      return;
    }
    const code = ctx.path.slice('/visit/'.length).replace(/\/+$/, '');
    if (code.includes('/')) {
      await next();
      return;
    }
    await sendAppPage(ctx, build.root, {
      cacheControl: 'no-store',
      notBuilt: 'This page is not built yet: npm start builds it.',
      status: (await isInUse(db, code.toUpperCase())) ? 200 : 404,
    });
  };
}
