import type { Context } from 'koa';
import { problem } from '../errors/problem';

/** This server's origin as the request reached it (through a trusted proxy: as the proxy says). */
export const ownOrigin = (ctx: Context): string => `${ctx.protocol}://${ctx.host}`;

const rejected = () =>
  problem('CSRF_REJECTED', "A write with the session cookie must come from this server's own pages.");

/**
 * A cookie-authenticated write must come from our own origin: its `Origin` (or, without one, a
 * `Sec-Fetch-Site` other than `same-origin`) says otherwise → 403. A request with neither header is not
 * from a browser, which is all a cookie forgery can use.
 */
export function checkSameOrigin(ctx: Context, publicUrl: string | undefined): void {
  const origin = ctx.get('Origin');
  if (origin) {
    const own = new Set([ownOrigin(ctx)]);
    if (publicUrl) own.add(new URL(publicUrl).origin);
    if (!own.has(origin)) throw rejected();
    return;
  }
  const site = ctx.get('Sec-Fetch-Site');
  if (site && site !== 'same-origin') throw rejected();
}
