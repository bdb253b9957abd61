import { z } from 'zod';
import { Problem } from '../../../shared/src/schemas/common';
import type { Route } from '../routes/define';

type JsonObject = Record<string, unknown>;

const toSchema = (schema: z.ZodType, io: 'input' | 'output'): JsonObject => {
  const { $schema: _dialect, ...rest } = z.toJSONSchema(schema, { target: 'draft-2020-12', io, unrepresentable: 'any' });
  return rest;
};

/** `/sites/:siteId` → `/sites/{siteId}` */
export const openApiPath = (path: string) => path.replace(/:([A-Za-z]+)/g, '{$1}');

const problemResponse = (description: string) => ({
  description,
  content: { 'application/problem+json': { schema: { $ref: '#/components/schemas/Problem' } } },
});

/** The errors any route of a kind can answer (CONTRACT §2). */
function errorResponses(route: Route): Record<string, unknown> {
  const errors: Record<string, unknown> = {
    401: problemResponse('UNAUTHENTICATED: no, unknown, expired or revoked token'),
    404: problemResponse('NOT_FOUND: unknown resource, or a site the token cannot view'),
    500: problemResponse('INTERNAL'),
    503: problemResponse('UNAVAILABLE: the database (or, for a webhook URL, DNS) cannot answer just now; retry after Retry-After'),
  };
  if (route.auth === 'token') {
    errors[403] = problemResponse('INSUFFICIENT_SCOPE');
    errors[429] = problemResponse('RATE_LIMITED (see Retry-After)');
  }
  // Every route refuses query parameters it does not take (a route without a query schema takes none).
  errors[400] = problemResponse('INVALID_QUERY');
  if (route.body) {
    errors[400] = problemResponse('MALFORMED_JSON, INVALID_QUERY or INVALID_IDEMPOTENCY_KEY');
    errors[413] = problemResponse('PAYLOAD_TOO_LARGE');
    errors[415] = problemResponse('UNSUPPORTED_MEDIA_TYPE');
    errors[422] = problemResponse('VALIDATION_FAILED (with errors[]), OCCURRED_AT_OUT_OF_RANGE or IDEMPOTENCY_KEY_REUSED');
  }
  if (route.write) errors[409] = problemResponse('A state conflict (the body carries `current`) or IDEMPOTENCY_KEY_IN_USE');
  return errors;
}

function parameters(route: Route): JsonObject[] {
  const list: JsonObject[] = [];
  for (const [location, schema] of [['path', route.params], ['query', route.query]] as const) {
    if (!schema) continue;
    const json = toSchema(schema, 'input') as { properties?: Record<string, JsonObject>; required?: string[] };
    for (const [name, property] of Object.entries(json.properties ?? {})) {
      list.push({ name, in: location, required: location === 'path' || (json.required ?? []).includes(name), schema: property });
    }
  }
  if (route.write && route.auth === 'token') {
    list.push({
      name: 'Idempotency-Key',
      in: 'header',
      required: false,
      description: 'Makes a retry safe: the first outcome is stored and replayed (CONTRACT §7). 1–255 visible ASCII, bare or quoted.',
      schema: { type: 'string', minLength: 1, maxLength: 257 },
    });
  }
  return list;
}

function operation(route: Route): JsonObject {
  const responses: Record<string, unknown> = {};
  for (const [status, schema] of Object.entries(route.responses)) {
    responses[status] = schema
      ? { description: 'Success', content: { 'application/json': { schema: toSchema(schema, 'output') } } }
      : { description: status === '304' ? 'Not modified' : 'No content' };
  }
  return {
    operationId: `${route.method.toLowerCase()}${openApiPath(route.path).replace(/[{}]/g, '').replace(/[/_-]+(\w)/g, (_, c: string) => c.toUpperCase())}`,
    summary: route.summary,
    tags: [route.tag],
    security: [{ [route.auth === 'admin' ? 'adminToken' : 'bearerToken']: [] }],
    ...(route.scope ? { 'x-required-scope': route.scope } : {}),
    parameters: parameters(route),
    ...(route.body
      ? { requestBody: { required: !route.bodyOptional, content: { 'application/json': { schema: toSchema(route.body, 'input') } } } }
      : {}),
    responses: { ...responses, ...errorResponses(route) },
  };
}

/** The OpenAPI 3.1 document of every declared route, made from the very schemas the server validates with. */
export function buildOpenApiDocument(routes: Route[]): JsonObject {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const route of routes) {
    const path = openApiPath(route.path);
    paths[path] = { ...paths[path], [route.method.toLowerCase()]: operation(route) };
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'Gatehouse API',
      version: '1.0.0',
      description:
        'Check-ins of people and vehicles at sites. Errors are RFC 9457 problem details; lists are keyset-paginated; writes honour Idempotency-Key.',
    },
    servers: [{ url: '/v1' }],
    paths,
    components: {
      securitySchemes: {
        bearerToken: { type: 'http', scheme: 'bearer', description: 'An API or kiosk token: ck_ followed by 36 base62 characters.' },
        adminToken: { type: 'http', scheme: 'bearer', description: 'The ADMIN_TOKEN of the deployment (management API only).' },
      },
      schemas: { Problem: toSchema(Problem, 'output') },
    },
  };
}
