import type { Middleware } from 'koa';

// Last-Event-ID: a browser kiosk resumes the event stream with it (fetch, for its bearer token).
const ALLOW_HEADERS = 'Authorization, Content-Type, Idempotency-Key, If-None-Match, Last-Event-ID, X-Request-Id';
// The list of docs/api.md (Basics), plus Date: a browser kiosk corrects a wrong device clock by the server's (docs/api.md).
const EXPOSE_HEADERS = 'Date, ETag, Idempotent-Replayed, RateLimit, RateLimit-Policy, Retry-After, X-Request-Id';
const ALLOW_METHODS = 'GET, POST, PUT, PATCH, DELETE, OPTIONS';

/** Any origin may call the API: credentials are bearer tokens, never cookies (docs/api.md, Basics). */
// Not async: a layer every request passes through costs a promise and a resumption more when it awaits.
export const cors: Middleware = (ctx, next) => {
  ctx.set('Access-Control-Allow-Origin', '*');
  ctx.set('Access-Control-Expose-Headers', EXPOSE_HEADERS);
  if (ctx.method === 'OPTIONS' && ctx.get('Access-Control-Request-Method')) {
    ctx.set('Access-Control-Allow-Methods', ALLOW_METHODS);
    ctx.set('Access-Control-Allow-Headers', ALLOW_HEADERS);
    ctx.set('Access-Control-Max-Age', '600');
    ctx.status = 204;
    return Promise.resolve();
  }
  return next();
};
