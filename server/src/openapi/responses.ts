import { z } from 'zod';
import type { Route } from '../routes/define';
import { scopeNeedWords } from './scopeWords';
import { responseHeaders } from './headers';
import { type JsonObject, type SchemaCollector, componentRef } from './jsonSchema';
import { namedSchemas } from './components';

const keyed = (route: Route) =>
  route.write && (route.auth === 'token' || route.auth === 'session' || route.auth === 'visit');
const byCaller = (route: Route) => route.auth === 'token' || route.auth === 'session';

/** Does the query take `siteIds` (a site that cannot be viewed is then a 404)? */
const takesSiteIds = (route: Route) => route.query instanceof z.ZodObject && 'siteIds' in route.query.shape;

/** Does the body take `occurredAt` (so OCCURRED_AT_OUT_OF_RANGE can answer)? */
function takesOccurredAt(route: Route, schemas: SchemaCollector): boolean {
  if (!route.body) return false;
  const json = schemas.toSchema(route.body, 'input');
  const ref = typeof json.$ref === 'string' ? json.$ref.slice(componentRef('').length) : undefined;
  const properties = ((ref ? schemas.components[ref] : json)?.properties ?? {}) as Record<string, unknown>;
  return 'occurredAt' in properties;
}

/** The schema of a 409's body: Problem, with `current` typed as the resource this route's conflicts carry. */
function conflictSchema(route: Route, schemas: SchemaCollector): JsonObject {
  return problemWithCurrent(route, route.conflict?.current, 'Conflict', schemas);
}

/** Problem, with `current` typed as `declared` (a named schema, or several), in a component named for them. */
function problemWithCurrent(
  route: Route,
  declared: z.ZodType | readonly z.ZodType[] | undefined,
  suffix: string,
  schemas: SchemaCollector,
): JsonObject {
  if (!declared) return { $ref: componentRef('Problem') };
  const currents = Array.isArray(declared) ? declared : [declared];
  const ids = currents.map((current: z.ZodType) => {
    const id = namedSchemas.get(current)?.id;
    if (!id)
      throw new Error(
        `OpenAPI: name the \`current\` resource of ${route.method} ${route.path} in openapi/components.ts`,
      );
    schemas.toSchema(current, 'output');
    return id;
  });
  const refs = ids.map((id) => ({ $ref: componentRef(id) }));
  const name = `${ids.join('Or')}${suffix}`;
  // Problem is closed (no other properties), so this is Problem written out again with `current`, not an allOf.
  const problem = schemas.components.Problem as { properties: JsonObject };
  schemas.add(name, {
    ...problem,
    description: `A problem whose \`current\` is the ${ids.join(' or ')} as it is now${suffix === 'Conflict' ? ' (on a state conflict; absent for IDEMPOTENCY_KEY_IN_USE)' : ''}.`,
    properties: { ...problem.properties, current: refs.length === 1 ? refs[0] : { anyOf: refs } },
  });
  return { $ref: componentRef(name) };
}

/** A 409 as the route's first state conflict answers it, with the route's example resource as `current`. */
function conflictExample(route: Route): JsonObject | undefined {
  const code = route.conflict?.codes[0]?.split(':')[0];
  if (!code || !route.conflict?.current || route.examples.response === null) return undefined;
  const title = code.charAt(0) + code.slice(1).toLowerCase().replaceAll('_', ' ');
  return {
    type: `urn:problem:${code.toLowerCase().replaceAll('_', '-')}`,
    title,
    status: 409,
    detail: route.conflict.codes[0]?.split(': ')[1] ?? title,
    code,
    instance: `/v1${route.path.replace(/:\w+/g, '1')}`,
    requestId: '5f0c6a52-3b1e-4d7a-9a8e-1c2b3d4e5f60',
    current: route.examples.current ?? route.examples.response,
  };
}

/** What a 401 of `route` means. */
function unauthenticated(route: Route): string {
  if (route.auth === 'admin') return 'UNAUTHENTICATED: no or a wrong ADMIN_TOKEN';
  if (route.auth === 'session') return 'UNAUTHENTICATED: no session, or an expired or ended one';
  if (route.auth === 'none') return 'UNAUTHENTICATED: (sign-in) email or password is incorrect';
  if (route.auth === 'visit') return 'UNAUTHENTICATED: no visit key, or one that is not 43 base64url characters';
  return 'UNAUTHENTICATED: no, unknown, expired or revoked token (or session)';
}

/** The errors `route` can answer, each with the codes it carries and its headers (docs/api.md, Errors). */
export function errorResponses(route: Route, schemas: SchemaCollector): Record<string, JsonObject> {
  const described: Array<[number, string, JsonObject?, unknown?]> = [];
  const bad = ['INVALID_QUERY: a query parameter that is malformed, out of range or not taken by this operation'];
  if (route.body) bad.push('MALFORMED_JSON: the body is not JSON');
  if (keyed(route)) bad.push('INVALID_IDEMPOTENCY_KEY: not 1–255 visible ASCII characters');
  described.push([400, bad.join('; ')]);
  described.push([401, unauthenticated(route)]);
  const forbidden: string[] = [];
  if (route.scope)
    forbidden.push(`INSUFFICIENT_SCOPE: the token or the staff user's role lacks ${scopeNeedWords(route.scope)}`);
  if (byCaller(route) && route.write)
    forbidden.push('CSRF_REJECTED: a write with the session cookie from another origin');
  if (forbidden.length > 0) described.push([403, forbidden.join('; ')]);
  // Only an id can name nothing: one in the path, or the siteIds of a search.
  const search = route.method === 'POST' && !route.write;
  if (route.params)
    described.push([
      404,
      'NOT_FOUND: unknown resource, or one on a site the token cannot view (the same answer either way)',
    ]);
  else if (search || takesSiteIds(route))
    described.push([404, 'NOT_FOUND: a listed site does not exist or the token cannot view it']);
  described.push([
    405,
    'METHOD_NOT_ALLOWED: this path was sent a method it does not take; `Allow` lists those it does',
  ]);
  const conflicts = [...(route.conflict?.codes ?? [])];
  if (keyed(route)) conflicts.push('IDEMPOTENCY_KEY_IN_USE: the same key is still running (retry after `Retry-After`)');
  if (conflicts.length > 0)
    described.push([409, conflicts.join('; '), conflictSchema(route, schemas), conflictExample(route)]);
  if (route.body) {
    described.push([413, 'PAYLOAD_TOO_LARGE: the body is over 64 KiB']);
    described.push([415, 'UNSUPPORTED_MEDIA_TYPE: the body is not `application/json`']);
  }
  const invalid: string[] = [];
  if (route.body)
    invalid.push('VALIDATION_FAILED: the body breaks the schema or a rule of the description (`errors` lists each)');
  if (takesOccurredAt(route, schemas))
    invalid.push('OCCURRED_AT_OUT_OF_RANGE: occurredAt over 5 minutes ahead or over 7 days ago');
  if (keyed(route)) invalid.push('IDEMPOTENCY_KEY_REUSED: the key was used for a different request');
  if (invalid.length > 0) described.push([422, invalid.join('; ')]);
  described.push([
    429,
    route.auth === 'none' && route.write
      ? "RATE_LIMITED: the client address's budget per minute is spent, or (sign-in) too many failed sign-ins (retry after `Retry-After`)"
      : byCaller(route)
        ? "RATE_LIMITED: the token's budget per minute is spent, or (without a valid token) the client address's (retry after `Retry-After`)"
        : "RATE_LIMITED: the client address's budget per minute is spent (retry after `Retry-After`)",
  ]);
  // Before a route's own refusals, which may add to it.
  described.push([
    503,
    'UNAVAILABLE: the database (or, for a webhook URL, DNS) cannot answer just now (retry after `Retry-After`)',
  ]);
  for (const [status, refusal] of Object.entries(route.refusals ?? {})) {
    const description = typeof refusal === 'string' ? refusal : refusal.description;
    const schema =
      typeof refusal === 'string' ? undefined : problemWithCurrent(route, refusal.current, 'Current', schemas);
    const same = described.find(([known]) => known === Number(status));
    if (same) same[1] = `${same[1]}; ${description}`;
    else described.push([Number(status), description, schema]);
  }
  described.sort(([a], [b]) => a - b);
  described.push([431, 'HEADERS_TOO_LARGE: the request headers are over 16 KiB in all']);
  described.push([500, 'INTERNAL: a fault of the server (reported with the request id)']);
  return Object.fromEntries(
    described.map(([status, description, schema, example]) => [
      String(status),
      {
        description,
        headers: responseHeaders(route, status),
        content: {
          'application/problem+json': {
            schema: schema ?? { $ref: componentRef('Problem') },
            ...(example === undefined ? {} : { example }),
          },
        },
      },
    ]),
  );
}
