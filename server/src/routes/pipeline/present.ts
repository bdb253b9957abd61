import type { Context } from 'koa';
import type { ResolvedDeps } from '../../context';
import { type SerializedReply, contentTypeFor } from '../../idempotency/serialized';
import type { Route } from '../define';

/** Tests: a response that breaks its route's schema fails loudly rather than reaching a client. */
function checkResponse(route: Route, reply: SerializedReply): void {
  const schema = route.responses[reply.status];
  if (!schema || reply.text === null || reply.replayed) return;
  const result = schema.safeParse(JSON.parse(reply.text));
  if (!result.success) {
    throw new Error(`Response of ${route.method} ${route.path} breaks its schema: ${result.error.message}`);
  }
}

/** Step 4, present: the reply's status, headers and bytes (a replay's as they were stored). */
export function present(route: Route, ctx: Context, reply: SerializedReply, deps: ResolvedDeps): void {
  if (deps.validateResponses) checkResponse(route, reply);
  for (const [name, value] of Object.entries(reply.headers)) ctx.set(name, value);
  if (reply.replayed) ctx.set('Idempotent-Replayed', 'true');
  ctx.status = reply.status;
  if (reply.text !== null) {
    ctx.type = contentTypeFor(reply.status);
    ctx.body = reply.text;
  }
}
