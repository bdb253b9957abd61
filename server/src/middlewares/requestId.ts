import { randomUUID } from 'node:crypto';
import type { Middleware } from 'koa';

const SAFE_REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/** Echoes a client's X-Request-Id when it is safe to, else makes one (docs/api.md, Basics). */
export const requestId: Middleware = (ctx, next) => {
  const sent = ctx.get('X-Request-Id');
  const id = SAFE_REQUEST_ID.test(sent) ? sent : randomUUID();
  ctx.state.requestId = id;
  ctx.set('X-Request-Id', id);
  return next();
};
