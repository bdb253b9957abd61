import { Validator } from '@seriousme/openapi-schema-validator';
import { beforeAll, describe, expect, it } from 'vitest';
import { parseEnv } from '../../server/src/config/env';
import { createLogger } from '../../server/src/logger';
import { createMetrics } from '../../server/src/observability/metrics';
import { openApiPath } from '../../server/src/openapi/document';
import { AddressLimiter } from '../../server/src/rateLimit/addressLimiter';
import { RateLimiter } from '../../server/src/rateLimit/limiter';
import { routes } from '../../server/src/routes';
import { mountRoutes } from '../../server/src/routes/mount';
import { apiClient } from '../support/http';
import { serverForFile } from '../support/serverAndWorld';

interface OpenApiDocument {
  openapi: string;
  paths: Record<string, Record<string, { parameters?: Array<{ name: string; in: string }>; requestBody?: unknown; responses: Record<string, unknown> }>>;
  components: { securitySchemes: Record<string, unknown>; schemas: Record<string, unknown> };
}

const harness = serverForFile();
let doc: OpenApiDocument;

beforeAll(async () => {
  const response = await apiClient(harness.server.baseUrl).get<OpenApiDocument>('/v1/openapi.json');
  expect(response.status).toBe(200);
  doc = response.body;
});

const operations = (document: OpenApiDocument) =>
  Object.entries(document.paths).flatMap(([path, methods]) => Object.keys(methods).map((method) => `${method.toUpperCase()} ${path}`));

describe('GET /v1/openapi.json', () => {
  it('is a valid OpenAPI 3.1 document, served without a token', async () => {
    expect(doc.openapi).toBe('3.1.0');
    const validator = new Validator();
    const result = await validator.validate({ ...doc });
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
    // The validator does reject a broken document (this test could fail).
    const broken = await new Validator().validate({ openapi: '3.1.0', info: { title: 'x' }, paths: { '/a': { get: { responses: 5 } } } });
    expect(broken.valid).toBe(false);
  });

  it('names the types the interface document names (and the other requests and resources), and every $ref resolves', () => {
    const schemaOf = (content: unknown) => (content as { content: Record<string, { schema: unknown }> }).content['application/json']?.schema;
    expect(schemaOf(doc.paths['/sites/{siteId}/checkins/people']?.post?.requestBody)).toEqual({ $ref: '#/components/schemas/CreateCheckinRequest' });
    expect(schemaOf(doc.paths['/checkins/people/search']?.post?.requestBody)).toEqual({ $ref: '#/components/schemas/PeopleCheckinsSearchRequest' });
    expect(schemaOf(doc.paths['/profiles/vehicles']?.post?.responses['201'])).toEqual({ $ref: '#/components/schemas/VehicleResponse' });
    expect(schemaOf(doc.paths['/sites/{siteId}/checkins/people/{checkinId}']?.get?.responses['200'])).toEqual({ $ref: '#/components/schemas/PersonCheckin' });
    const refs = [...JSON.stringify(doc).matchAll(/"\$ref":"([^"]+)"/g)].map((match) => match[1] ?? '');
    expect(refs.length).toBeGreaterThan(50);
    for (const ref of new Set(refs)) {
      expect(ref).toMatch(/^#\/components\/schemas\//);
      expect(doc.components.schemas, ref).toHaveProperty([ref.slice('#/components/schemas/'.length)]);
    }
  });

  it('documents exactly the routes the router serves, no more and no fewer', () => {
    const deps = {
      database: harness.server.database,
      env: parseEnv({ LOG_LEVEL: 'silent' }),
      log: createLogger('silent'),
      metrics: createMetrics(harness.server.database),
      limiter: new RateLimiter(harness.server.database, 600),
      addressLimiter: new AddressLimiter(600),
    };
    const router = mountRoutes(routes, deps);
    const served = router.stack.flatMap((layer) =>
      layer.methods.filter((method) => method !== 'HEAD').map((method) => `${method} ${openApiPath(String(layer.path).replace(/^\/v1/, ''))}`),
    );
    expect(new Set(served).size).toBe(served.length);
    expect([...operations(doc)].sort()).toEqual([...served].sort());
  });

  it('describes security, Idempotency-Key on writes, pagination parameters and problem responses', () => {
    expect(doc.components.securitySchemes).toHaveProperty('bearerToken');
    const create = doc.paths['/sites/{siteId}/checkins/people']?.post;
    expect(create?.parameters?.map((parameter) => `${parameter.in}:${parameter.name}`)).toEqual(
      expect.arrayContaining(['path:siteId', 'header:Idempotency-Key']),
    );
    expect(create?.requestBody).toBeDefined();
    expect(Object.keys(create?.responses ?? {})).toEqual(expect.arrayContaining(['201', '401', '404', '409', '422']));
    const list = doc.paths['/sites/{siteId}/checkins/people']?.get;
    expect(list?.parameters?.map((parameter) => parameter.name)).toEqual(expect.arrayContaining(['limit', 'cursor', 'status']));
    const search = doc.paths['/checkins/people/search']?.post;
    expect(search?.parameters?.some((parameter) => parameter.name === 'Idempotency-Key')).toBe(false);
  });
});
