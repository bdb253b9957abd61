import type { Context } from 'koa';
import { z } from 'zod';
import { problem, validationFailed } from '../../errors/problem';
import { fieldErrors, queryProblem } from '../../errors/zodErrors';
import { readJsonBody, readTextBody } from '../../middlewares/readJsonBody';
import type { Route } from '../define';
import type { Received, ValidInput } from './receive';

/** The first query parameter holding a NUL character (`%00`), which PostgreSQL text cannot hold. */
const nulParameter = (raw: Record<string, unknown>) =>
  Object.entries(raw).find(([, value]) =>
    (Array.isArray(value) ? value : [value]).some((item) => typeof item === 'string' && item.includes('\u0000')),
  )?.[0];

/** A route that declares no query takes none: an unknown parameter is a 400, as on the routes that do. */
const NO_QUERY = z.strictObject({});

function parseQuery(schema: z.ZodType | undefined, raw: Record<string, unknown>): unknown {
  const nul = nulParameter(raw);
  if (nul !== undefined)
    throw problem('INVALID_QUERY', `Query parameter ${nul}: must not contain NUL (%00) characters`);
  const parsed = (schema ?? NO_QUERY).safeParse(raw);
  if (parsed.success) return parsed.data;
  throw problem('INVALID_QUERY', queryProblem(parsed.error) ?? 'Invalid query.');
}

async function parseBody(route: Route, ctx: Context): Promise<{ sent: unknown; body: unknown }> {
  if (!route.body) return { sent: undefined, body: undefined };
  const raw = route.requestMediaType ? await readTextBody(ctx, route.requestMediaType) : await readJsonBody(ctx);
  const sent = raw === undefined && route.bodyOptional ? {} : raw;
  const parsed = route.body.safeParse(sent);
  if (!parsed.success) throw validationFailed(fieldErrors(parsed.error));
  return { sent, body: parsed.data };
}

async function read(route: Route, ctx: Context): Promise<ValidInput> {
  const query = parseQuery(route.query, ctx.query);
  const { sent, body } = await parseBody(route, ctx);
  return { query, body, sent };
}

/** Step 2, validate: the query (400) and the body (422), by the route's own schemas; read once per request. */
export function validate(request: Received, ctx: Context): Promise<ValidInput> {
  request.input ??= read(request.route, ctx);
  return request.input;
}
