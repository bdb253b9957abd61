import { scopeNeedText } from '../../../shared/src/schemas/admin';
import type { Route } from '../routes/define';
import { scopeNeedWords } from './scopeWords';
import { DocumentedProblem } from './components';
import { headerComponents, headerParameters, parameterComponents, responseHeaders } from './headers';
import { type JsonObject, SchemaCollector } from './jsonSchema';
import { errorResponses } from './responses';
import { selfOperation } from './selfOperation';
import { tags } from './tags';

/** `/sites/:siteId` → `/sites/{siteId}` */
export const openApiPath = (path: string) => path.replace(/:([A-Za-z]+)/g, '{$1}');

const operationId = (route: Route) =>
  `${route.method.toLowerCase()}${openApiPath(route.path)
    .replace(/[{}]/g, '')
    .replace(/[/_-]+(\w)/g, (_, c: string) => c.toUpperCase())}`;

/** Who may call, in words (x-required-scope says it for machines). */
function access(route: Route): string {
  if (route.auth === 'admin') return 'Needs the ADMIN_TOKEN of the deployment.';
  if (route.auth === 'none') return 'Needs no credentials.';
  if (route.auth === 'session') return 'Needs a staff session (the `gh_session` cookie of `POST /session`).';
  if (route.auth === 'visit')
    return needsVisitKey(route)
      ? "Needs no token: the site's visit code, and the visit key the phone made (`Authorization: Visit <key>`)."
      : "Needs no token: the site's visit code.";
  return route.scope
    ? `Needs a token, or a staff session whose role has the scope ${scopeNeedWords(route.scope)}.`
    : 'Needs any valid token or staff session.';
}

function parameters(route: Route, schemas: SchemaCollector): JsonObject[] {
  const list: JsonObject[] = [];
  for (const [location, schema] of [
    ['path', route.params],
    ['query', route.query],
  ] as const) {
    if (!schema) continue;
    const json = schemas.toSchema(schema, 'input') as { properties?: Record<string, JsonObject>; required?: string[] };
    for (const [name, property] of Object.entries(json.properties ?? {})) {
      const example = location === 'query' ? route.examples.query?.[name] : undefined;
      list.push({
        name,
        in: location,
        required: location === 'path' || (json.required ?? []).includes(name),
        // A list in a query string is comma-separated: `status=IN,ON_BREAK`.
        ...(property.type === 'array' ? { style: 'form', explode: false } : {}),
        schema: property,
        ...(example === undefined ? {} : { example: property.type === 'array' ? example.split(',') : example }),
      });
    }
  }
  return [...list, ...headerParameters(route)];
}

function successResponses(route: Route, schemas: SchemaCollector): Record<string, JsonObject> {
  const responses: Record<string, JsonObject> = {};
  const statuses = Object.keys(route.responses)
    .map(Number)
    .sort((a, b) => a - b);
  for (const status of statuses) {
    const schema = route.responses[status];
    const headers = responseHeaders(route, status);
    const example = status === statuses[0] ? { example: route.examples.response } : {};
    responses[status] = schema
      ? {
          description: 'Success',
          headers,
          content: {
            [route.mediaType ?? 'application/json']: { schema: schemas.toSchema(schema, 'output'), ...example },
          },
        }
      : {
          description:
            status === 304
              ? 'Not modified: the copy the client holds (its If-None-Match) is current; no body'
              : 'Done; no body',
          headers,
        };
  }
  return responses;
}

/** A visit route that needs the phone's key: a write, or a read of one visit. */
const needsVisitKey = (route: Route) => route.write || route.path.includes(':checkinId');

function securityOf(route: Route): JsonObject[] {
  if (route.auth === 'visit') return needsVisitKey(route) ? [{ visitKey: [] }] : [];
  if (route.auth === 'admin') return [{ adminToken: [] }];
  if (route.auth === 'session') return [{ sessionCookie: [] }];
  if (route.auth === 'none') return [];
  return [{ bearerToken: [] }, { sessionCookie: [] }];
}

function operation(route: Route, schemas: SchemaCollector): JsonObject {
  const request = route.body
    ? {
        content: {
          [route.requestMediaType ?? 'application/json']: {
            schema: schemas.toSchema(route.body, 'input'),
            example: route.examples.request,
          },
        },
      }
    : undefined;
  return {
    operationId: operationId(route),
    summary: route.summary,
    description: `${route.description}\n\n${access(route)}`,
    tags: [route.tag],
    security: securityOf(route),
    ...(route.scope ? { 'x-required-scope': scopeNeedText(route.scope) } : {}),
    parameters: parameters(route, schemas),
    ...(request ? { requestBody: { required: !route.bodyOptional, ...request } } : {}),
    responses: { ...successResponses(route, schemas), ...errorResponses(route, schemas) },
  };
}

const DESCRIPTION = `Check-ins of people and vehicles at sites.

- Errors are RFC 9457 problem details (\`application/problem+json\`) with a stable \`code\`; a 409 carries the resource as it is now in \`current\` where there is one.
- Lists are keyset-paginated (\`limit\`, \`cursor\`, \`nextCursor\`). A query parameter an operation does not take is a 400 INVALID_QUERY.
- Writes honour \`Idempotency-Key\`: a retry answers the stored outcome with \`Idempotent-Replayed: true\`.
- Every response carries \`X-Request-Id\`; every authenticated one \`RateLimit\` and \`RateLimit-Policy\`.
- A known path sent a method it does not take is a 405 with \`Allow\`; request headers over 16 KiB are a 431.`;

/** The OpenAPI 3.1 document of every declared route, made from the very schemas the server validates with. */
export function buildOpenApiDocument(routes: Route[]): JsonObject {
  const paths: Record<string, Record<string, unknown>> = {};
  const schemas = new SchemaCollector();
  schemas.toSchema(DocumentedProblem, 'output');
  const known = new Set(tags.map((tag) => tag.name));
  for (const route of routes) {
    if (!known.has(route.tag))
      throw new Error(`OpenAPI: tag "${route.tag}" of ${route.method} ${route.path} is not in openapi/tags.ts`);
    const path = openApiPath(route.path);
    paths[path] = { ...paths[path], [route.method.toLowerCase()]: operation(route, schemas) };
  }
  paths['/openapi.json'] = { get: selfOperation() };
  return {
    openapi: '3.1.0',
    info: {
      title: 'Gatehouse API',
      version: '1.0.0',
      description: DESCRIPTION,
      license: { name: 'MIT', identifier: 'MIT' },
      // The deployment's own reference page (/docs): withOrigin adds its absolute URL.
      contact: { name: 'Gatehouse API reference' },
    },
    servers: [{ url: '/v1', description: 'Relative to where this document was read' }],
    tags,
    paths,
    components: {
      securitySchemes: {
        bearerToken: {
          type: 'http',
          scheme: 'bearer',
          description: 'An API or kiosk token: ck_ followed by 36 base62 characters.',
        },
        sessionCookie: {
          type: 'apiKey',
          in: 'cookie',
          name: 'gh_session',
          description: "A staff session (POST /v1/session); writes must come from the server's own origin.",
        },
        visitKey: {
          type: 'apiKey',
          in: 'header',
          name: 'Authorization',
          description:
            "`Visit <key>`: the visit key a visitor's phone made (256 random bits, base64url, 43 characters); the server keeps its SHA-256 only.",
        },
        adminToken: {
          type: 'http',
          scheme: 'bearer',
          description: 'The ADMIN_TOKEN of the deployment (management API only).',
        },
      },
      schemas: schemas.components,
      headers: headerComponents,
      parameters: parameterComponents,
    },
  };
}

/** The document as served to one request: with the server's own absolute URL first, as the request reached it. */
export function withOrigin(document: JsonObject, origin: string): JsonObject {
  const servers = document.servers as JsonObject[];
  const info = document.info as { contact: JsonObject };
  return {
    ...document,
    info: { ...info, contact: { ...info.contact, url: `${origin}/docs` } },
    servers: [{ url: `${origin}/v1`, description: 'This server' }, ...servers],
  };
}
