import type { Route } from '../routes/define';

type JsonObject = Record<string, unknown>;

const text = (description: string, extra: JsonObject = {}) => ({ description, schema: { type: 'string', ...extra } });

/** Response headers, declared once (components/headers) and referred to where the server sends them. */
export const headerComponents: Record<string, JsonObject> = {
  'X-Request-Id': text(
    'The id of this request in the server logs: the one the client sent (≤ 128 safe characters), else a new one.',
    { maxLength: 128 },
  ),
  RateLimit: text('What is left of the token\'s budget: `"default";r=<remaining>;t=<seconds to reset>`.', {
    example: '"default";r=599;t=60',
  }),
  'RateLimit-Policy': text('The token\'s budget: `"default";q=<requests>;w=60`.', { example: '"default";q=600;w=60' }),
  'Retry-After': { description: 'Seconds to wait before trying again.', schema: { type: 'integer', minimum: 0 } },
  'Idempotent-Replayed': text(
    '`true` when this is the stored outcome of an earlier request with the same Idempotency-Key.',
    { enum: ['true'] },
  ),
  ETag: text('The version of the resource; send it back in If-None-Match.', { example: '"c0ffee42"' }),
  'Cache-Control': text('How long the response may be reused.', { example: 'private, max-age=300' }),
  'WWW-Authenticate': text('`Bearer`, with `error="invalid_token"` when a token was sent.', {
    example: 'Bearer error="invalid_token"',
  }),
  Allow: text('The methods this path takes.', { example: 'GET, HEAD, PUT' }),
};

const ref = (name: string) => ({ $ref: `#/components/headers/${name}` });

/** Request parameters every operation of a kind takes (components/parameters). */
export const parameterComponents: Record<string, JsonObject> = {
  XRequestId: {
    name: 'X-Request-Id',
    in: 'header',
    required: false,
    description:
      'An id for this request, echoed in the response and the logs when it is 1–128 of `A-Z a-z 0-9 - _ . :` (else a new one is made).',
    schema: { type: 'string' },
  },
  IdempotencyKey: {
    name: 'Idempotency-Key',
    in: 'header',
    required: false,
    description:
      'Makes a retry safe: the first outcome is stored for 7 days and replayed. 1–255 visible ASCII characters, bare or quoted.',
    schema: { type: 'string', minLength: 1, maxLength: 257 },
    example: 'kiosk-7-0001',
  },
  IfNoneMatch: {
    name: 'If-None-Match',
    in: 'header',
    required: false,
    description: 'The ETag of the copy the client holds: 304 with no body while it is still current.',
    schema: { type: 'string' },
    example: '"c0ffee42"',
  },
  IfMatch: {
    name: 'If-Match',
    in: 'header',
    required: false,
    description: 'The ETag of the copy the change was made from: 412 (with the current one) if it changed meanwhile.',
    schema: { type: 'string' },
    example: '"c0ffee42"',
  },
};

const keyed = (route: Route) =>
  route.write && (route.auth === 'token' || route.auth === 'session' || route.auth === 'visit');

/** The headers a response of `route` with `status` carries (docs/api.md: Errors, Rate limits, Idempotency). */
export function responseHeaders(route: Route, status: number): Record<string, JsonObject> {
  const names = ['X-Request-Id'];
  if ((route.auth === 'token' || route.auth === 'session') && status !== 431)
    names.push('RateLimit', 'RateLimit-Policy');
  if (status < 300 || status === 304) names.push(...route.headers);
  if (keyed(route) && (status < 300 || status === 409 || status === 422)) names.push('Idempotent-Replayed');
  if (status === 429 || status === 503 || (status === 409 && keyed(route))) names.push('Retry-After');
  if (status === 401) names.push('WWW-Authenticate');
  if (status === 412) names.push('ETag');
  if (status === 405) names.push('Allow');
  return Object.fromEntries(names.map((name) => [name, ref(name)]));
}

/** The header parameters of `route`'s operation. */
export function headerParameters(route: Route): JsonObject[] {
  const list = [{ $ref: '#/components/parameters/XRequestId' }];
  if (keyed(route)) list.push({ $ref: '#/components/parameters/IdempotencyKey' });
  if (route.responses[304] !== undefined) list.push({ $ref: '#/components/parameters/IfNoneMatch' });
  if (route.refusals?.[412] !== undefined) list.push({ $ref: '#/components/parameters/IfMatch' });
  return list;
}
