import type { Context } from 'koa';
import { problem } from '../errors/problem';

/** A Host header that is a host name or address (and port) and nothing else. */
const PLAIN_HOST = /^[A-Za-z0-9.-]+(:\d{1,5})?$|^\[[0-9A-Fa-f:.]+\](:\d{1,5})?$/;

/**
 * Where phones reach this server, for what is printed (the QR poster): `PUBLIC_URL`, else the address the
 * signed-in manager's own browser used for this request (its `Host`, never `X-Forwarded-Host`), and only
 * when that is a plain host name or address. Staff who reach the server by another name than visitors
 * will (a proxy, an internal name) set PUBLIC_URL (docs/running-a-site.md, The visitor's phone).
 */
export function visitBaseUrl(ctx: Context, publicUrl: string | undefined): string {
  if (publicUrl) return publicUrl.replace(/\/+$/, '');
  const host = ctx.get('Host');
  if (!PLAIN_HOST.test(host))
    throw problem('VALIDATION_FAILED', 'The request named no plain host to print: set PUBLIC_URL on the server.');
  return `${ctx.protocol}://${host.toLowerCase()}`;
}
