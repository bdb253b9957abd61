import { z } from 'zod';
import { Problem } from '../../../shared/src/schemas/common';
import type { Route } from '../routes/define';
import { namedSchemas } from './components';

type JsonObject = Record<string, unknown>;
type Io = 'input' | 'output';

/** Where a named schema's definition goes; its uses refer to it there. */
const componentRef = (name: string) => `#/components/schemas/${name}`;

/**
 * Converts schemas to JSON Schema, gathering every named schema (openapi/components.ts) it meets into
 * `components`, under its name, and referring to it there. A named schema has one form: one named for
 * requests is only read (input), one named for answers only written (output); a name met in two different
 * forms is a mistake in components.ts, refused here (the OpenAPI test builds the document).
 */
class SchemaCollector {
  readonly components: Record<string, JsonObject> = {};

  toSchema(schema: z.ZodType, io: Io): JsonObject {
    const { $schema: _dialect, $defs, ...rest } = z.toJSONSchema(schema, { target: 'draft-2020-12', io, unrepresentable: 'any', metadata: namedSchemas });
    const found = Object.entries($defs ?? {}).map(([name, definition]) => [name, this.relink(definition)] as const);
    for (const [name, definition] of found) {
      const known = this.components[name];
      if (known !== undefined && JSON.stringify(known) !== JSON.stringify(definition)) {
        throw new Error(`OpenAPI: the named schema ${name} has two forms (as a request and as an answer); name only one`);
      }
      this.components[name] = definition as JsonObject;
    }
    return this.relink(rest) as JsonObject;
  }

  /** `#/$defs/<name>` (as zod writes it) → `#/components/schemas/<name>`, everywhere in `value`. */
  private relink(value: unknown): unknown {
    if (Array.isArray(value)) return value.map((item) => this.relink(item));
    if (value === null || typeof value !== 'object') return value;
    return Object.fromEntries(
      Object.entries(value).map(([key, item]) =>
        key === '$ref' && typeof item === 'string' && item.startsWith('#/$defs/')
          ? [key, componentRef(item.slice('#/$defs/'.length))]
          : [key, this.relink(item)],
      ),
    );
  }
}

/** `/sites/:siteId` → `/sites/{siteId}` */
export const openApiPath = (path: string) => path.replace(/:([A-Za-z]+)/g, '{$1}');

const problemResponse = (description: string) => ({
  description,
  content: { 'application/problem+json': { schema: { $ref: componentRef('Problem') } } },
});

/** The errors any route of a kind can answer (docs/api.md, Errors). */
function errorResponses(route: Route): Record<string, unknown> {
  const errors: Record<string, unknown> = {
    401: problemResponse('UNAUTHENTICATED: no, unknown, expired or revoked token'),
    404: problemResponse('NOT_FOUND: unknown resource, or a site the token cannot view'),
    500: problemResponse('INTERNAL'),
    503: problemResponse('UNAVAILABLE: the database (or, for a webhook URL, DNS) cannot answer just now; retry after Retry-After'),
  };
  if (route.auth === 'token' || route.auth === 'session') {
    errors[403] = problemResponse('INSUFFICIENT_SCOPE, or CSRF_REJECTED (a cookie write from another origin)');
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

function parameters(route: Route, schemas: SchemaCollector): JsonObject[] {
  const list: JsonObject[] = [];
  for (const [location, schema] of [['path', route.params], ['query', route.query]] as const) {
    if (!schema) continue;
    const json = schemas.toSchema(schema, 'input') as { properties?: Record<string, JsonObject>; required?: string[] };
    for (const [name, property] of Object.entries(json.properties ?? {})) {
      list.push({ name, in: location, required: location === 'path' || (json.required ?? []).includes(name), schema: property });
    }
  }
  if (route.write && (route.auth === 'token' || route.auth === 'session')) {
    list.push({
      name: 'Idempotency-Key',
      in: 'header',
      required: false,
      description: 'Makes a retry safe: the first outcome is stored and replayed. 1–255 visible ASCII, bare or quoted.',
      schema: { type: 'string', minLength: 1, maxLength: 257 },
    });
  }
  return list;
}

function securityOf(route: Route): JsonObject[] {
  if (route.auth === 'admin') return [{ adminToken: [] }];
  if (route.auth === 'session') return [{ sessionCookie: [] }];
  if (route.auth === 'none') return [];
  return [{ bearerToken: [] }, { sessionCookie: [] }];
}

function operation(route: Route, schemas: SchemaCollector): JsonObject {
  const responses: Record<string, unknown> = {};
  for (const [status, schema] of Object.entries(route.responses)) {
    responses[status] = schema
      ? { description: 'Success', content: { 'application/json': { schema: schemas.toSchema(schema, 'output') } } }
      : { description: status === '304' ? 'Not modified' : 'No content' };
  }
  return {
    operationId: `${route.method.toLowerCase()}${openApiPath(route.path).replace(/[{}]/g, '').replace(/[/_-]+(\w)/g, (_, c: string) => c.toUpperCase())}`,
    summary: route.summary,
    tags: [route.tag],
    security: securityOf(route),
    ...(route.scope ? { 'x-required-scope': route.scope } : {}),
    parameters: parameters(route, schemas),
    ...(route.body
      ? { requestBody: { required: !route.bodyOptional, content: { 'application/json': { schema: schemas.toSchema(route.body, 'input') } } } }
      : {}),
    responses: { ...responses, ...errorResponses(route) },
  };
}

/** The OpenAPI 3.1 document of every declared route, made from the very schemas the server validates with. */
export function buildOpenApiDocument(routes: Route[]): JsonObject {
  const paths: Record<string, Record<string, unknown>> = {};
  const schemas = new SchemaCollector();
  schemas.toSchema(Problem, 'output');
  for (const route of routes) {
    const path = openApiPath(route.path);
    paths[path] = { ...paths[path], [route.method.toLowerCase()]: operation(route, schemas) };
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
        sessionCookie: { type: 'apiKey', in: 'cookie', name: 'gh_session', description: 'A staff session (POST /v1/session); writes must come from the server\'s own origin.' },
        adminToken: { type: 'http', scheme: 'bearer', description: 'The ADMIN_TOKEN of the deployment (management API only).' },
      },
      schemas: schemas.components,
    },
  };
}
