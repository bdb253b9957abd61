import { execFile } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { validate } from '@readme/openapi-parser';
import type { z } from 'zod';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseEnv } from '../../server/src/config/env';
import { createLogger } from '../../server/src/logger';
import { createMetrics } from '../../server/src/observability/metrics';
import { openApiPath } from '../../server/src/openapi/document';
import { AddressLimiter } from '../../server/src/rateLimit/addressLimiter';
import { RateLimiter } from '../../server/src/rateLimit/limiter';
import { routes } from '../../server/src/routes';
import { RememberedCallers } from '../../server/src/auth/rememberedCallers';
import { mountRoutes } from '../../server/src/routes/mount';
import { apiClient } from '../support/http';
import { buildWorld } from '../support/factories';
import {
  type OpenApiDocument,
  type Operation,
  documentValidator,
  operationsOf,
  resolveParameter,
} from '../support/openApiValidator';
import { serverForFile } from '../support/serverAndWorld';
import { EXPORT_THREAD_DEFAULTS, createExportThreads } from '../../server/src/exports/exportThreads';
import { LiveEventHub } from '../../server/src/live/eventHub';
import { KioskPresence } from '../../server/src/live/kioskPresence';

const run = promisify(execFile);
const harness = serverForFile();
const root = path.resolve(import.meta.dirname, '../..');
let doc: OpenApiDocument;
let dir: string;
let file: string;

beforeAll(async () => {
  const response = await apiClient(harness.server.baseUrl).get<OpenApiDocument>('/v1/openapi.json');
  expect(response.status).toBe(200);
  doc = response.body;
  dir = await fs.mkdtemp(path.join(os.tmpdir(), 'gatehouse-openapi-'));
  file = path.join(dir, 'openapi.json');
  await fs.writeFile(file, response.text);
});

afterAll(async () => {
  await fs.rm(dir, { recursive: true, force: true });
});

const op = (key: string): Operation => {
  const [method = '', route = ''] = key.split(' ');
  const found = doc.paths[route]?.[method.toLowerCase()];
  if (!found) throw new Error(`no ${key}`);
  return found;
};
const parameterNames = (operation: Operation | undefined) =>
  (operation?.parameters ?? [])
    .map((parameter) => resolveParameter(doc, parameter))
    .map((parameter) => `${parameter.in}:${parameter.name}`);
const headerNames = (operation: Operation, status: string) => Object.keys(operation.responses[status]?.headers ?? {});

/** Redocly's recommended ruleset, on the file, offline; its problems as `rule: message`. */
async function redoclyProblems(target: string): Promise<{ errors: number; warnings: number; problems: string[] }> {
  const config = path.join(dir, 'redocly.yaml');
  await fs.writeFile(config, 'extends:\n  - recommended\n');
  const env = { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' };
  const cli = path.join(root, 'node_modules/.bin/redocly');
  const output = await run(cli, ['lint', target, '--config', config, '--format=json'], { env, cwd: dir }).catch(
    (error: { stdout: string }) => error,
  );
  const report = JSON.parse(output.stdout) as {
    totals: { errors: number; warnings: number };
    problems: Array<{ ruleId: string; message: string }>;
  };
  const { errors, warnings } = report.totals;
  return { errors, warnings, problems: report.problems.map((problem) => `${problem.ruleId}: ${problem.message}`) };
}

describe('GET /v1/openapi.json', () => {
  it('validates with @readme/openapi-parser and lints clean with Redocly (recommended)', async () => {
    const parsed = await validate(file);
    expect(parsed.valid ? [] : parsed.errors).toEqual([]);
    expect(parsed.warnings).toEqual([]);
    expect(await redoclyProblems(file)).toEqual({ errors: 0, warnings: 0, problems: [] });
    // Both tools do refuse a broken document (this test could fail).
    const broken = path.join(dir, 'broken.json');
    await fs.writeFile(broken, JSON.stringify({ ...doc, info: { title: 'x' }, tags: undefined }));
    expect((await validate(broken)).valid).toBe(false);
    expect((await redoclyProblems(broken)).errors).toBeGreaterThan(0);
  }, 60_000);

  it('names the types the interface document names, and every $ref resolves', () => {
    const schemaOf = (content: unknown) =>
      (content as { content: Record<string, { schema: unknown }> }).content['application/json']?.schema;
    expect(schemaOf(op('POST /sites/{siteId}/checkins/people').requestBody)).toEqual({
      $ref: '#/components/schemas/CreateCheckinRequest',
    });
    expect(schemaOf(op('POST /checkins/people/search').requestBody)).toEqual({
      $ref: '#/components/schemas/PeopleCheckinsSearchRequest',
    });
    expect(schemaOf(op('POST /profiles/vehicles').responses['201'])).toEqual({
      $ref: '#/components/schemas/VehicleResponse',
    });
    expect(schemaOf(op('GET /sites/{siteId}/checkins/people/{checkinId}').responses['200'])).toEqual({
      $ref: '#/components/schemas/PersonCheckin',
    });
    const refs = [...JSON.stringify(doc).matchAll(/"\$ref":"#\/components\/(\w+)\/([^"]+)"/g)];
    expect(refs.length).toBeGreaterThan(50);
    for (const [ref, kind = '', name = ''] of refs) expect(doc.components[kind], ref).toHaveProperty([name]);
  });

  it('documents exactly the routes the router serves, and itself', () => {
    const deps = {
      database: harness.server.database,
      env: parseEnv({ LOG_LEVEL: 'silent' }),
      log: createLogger('silent'),
      metrics: createMetrics(harness.server.database),
      limiter: new RateLimiter(harness.server.database, 600),
      addressLimiter: new AddressLimiter(600),
      exportThreads: createExportThreads({ ...EXPORT_THREAD_DEFAULTS, databaseUrl: harness.server.databaseUrl }),
      rememberedCallers: new RememberedCallers(),
      liveEvents: new LiveEventHub({ pool: harness.server.database, log: createLogger('silent') }),
      kioskPresence: new KioskPresence({
        pool: harness.server.database,
        log: createLogger('silent'),
        seenEveryMs: 60_000,
      }),
    };
    const router = mountRoutes(routes, deps);
    const served = router.stack.flatMap((layer) =>
      layer.methods
        .filter((method) => method !== 'HEAD')
        .map((method) => `${method} ${openApiPath(String(layer.path).replace(/^\/v1/, ''))}`),
    );
    expect(new Set(served).size).toBe(served.length);
    expect([...operationsOf(doc)].sort()).toEqual([...served, 'GET /openapi.json'].sort());
    expect(op('GET /openapi.json')).toMatchObject({ security: [] });
  });

  it('gives readers tags, a description and examples on every operation, the scope in words, license, contact and servers', () => {
    expect(doc.info).toMatchObject({ license: { name: 'MIT' }, contact: { name: 'Gatehouse API reference' } });
    // No PUBLIC_URL in this file's server: the relative URL only (openapiServers.test.ts has the rest).
    expect(doc.servers.map((server) => server.url)).toEqual(['/v1']);
    const tagNames = doc.tags.map((tag) => tag.name);
    for (const key of operationsOf(doc)) {
      const operation = op(key);
      expect(tagNames, key).toEqual(expect.arrayContaining(operation.tags));
      expect(operation.description?.length ?? 0, key).toBeGreaterThan(40);
      const success = Object.entries(operation.responses).find(([status]) => status.startsWith('2'))?.[1];
      // JSON, or the one other media type a route declares (text/csv for an export).
      if (success?.content) expect(Object.values(success.content)[0], key).toHaveProperty('example');
      // JSON, or text/csv for a host import.
      if (operation.requestBody) expect(Object.values(operation.requestBody.content)[0], key).toHaveProperty('example');
    }
    expect(op('POST /sites/{siteId}/checkins/people').description).toContain(
      'Needs a token, or a staff session whose role has the scope `checkins:write` or `kiosk:visitor`.',
    );
    expect(op('POST /admin/accounts').description).toContain('ADMIN_TOKEN');
  });

  it('checks every example against the schema the server validates with', () => {
    for (const route of routes) {
      const key = `${route.method} ${route.path}`;
      if (route.body) expect(route.body.safeParse(route.examples.request).error, `${key} request`).toBeUndefined();
      const status = Math.min(...Object.keys(route.responses).map(Number));
      const schema: z.ZodType | null | undefined = route.responses[status];
      if (schema) expect(schema.safeParse(route.examples.response).error, `${key} response`).toBeUndefined();
      else expect(route.examples.response, key).toBeNull();
    }
  });

  it('declares the headers the server sends and reads', () => {
    const config = op('GET /sites/{siteId}/checkins/people/config');
    expect(parameterNames(config)).toEqual(expect.arrayContaining(['header:If-None-Match', 'header:X-Request-Id']));
    expect(headerNames(config, '200')).toEqual(
      expect.arrayContaining(['ETag', 'Cache-Control', 'X-Request-Id', 'RateLimit', 'RateLimit-Policy']),
    );
    expect(config.responses['304']).toMatchObject({ headers: { ETag: {} } });
    expect(config.responses['304']).not.toHaveProperty('content');
    expect(headerNames(op('PUT /sites/{siteId}/checkins/people/config'), '200')).toContain('ETag');
    const create = op('POST /sites/{siteId}/checkins/vehicles');
    expect(parameterNames(create)).toEqual(
      expect.arrayContaining(['path:siteId', 'header:Idempotency-Key', 'header:X-Request-Id']),
    );
    expect(headerNames(create, '201')).toContain('Idempotent-Replayed');
    expect(headerNames(create, '409')).toContain('Retry-After');
    expect(headerNames(create, '429')).toContain('Retry-After');
    expect(headerNames(create, '401')).toContain('WWW-Authenticate');
    expect(headerNames(create, '405')).toContain('Allow');
    expect(create.responses).toHaveProperty('431');
    expect(parameterNames(op('POST /checkins/people/search'))).not.toContain('header:Idempotency-Key');
    for (const key of operationsOf(doc)) {
      for (const [status, response] of Object.entries(op(key).responses))
        expect(response.headers ?? {}, `${key} ${status}`).toHaveProperty(['X-Request-Id']);
    }
  });

  it('says only the errors an operation can answer: no idempotency codes on the management API', () => {
    const admin = op('POST /admin/accounts/{accountId}/tokens');
    expect(JSON.stringify(admin.responses)).not.toMatch(/IDEMPOTENCY/);
    expect(admin.responses).not.toHaveProperty('409');
    // Its 429 is the per-address budget of requests without a token's own (docs/api.md, Rate limits).
    expect(JSON.stringify(admin.responses)).toMatch(/RATE_LIMITED: the client address/);
    expect(JSON.stringify(op('POST /sites/{siteId}/checkins/vehicles').responses)).toMatch(/IDEMPOTENCY_KEY_IN_USE/);
    expect(op('GET /sites').responses).not.toHaveProperty('409');
  });

  it('describes what the server answers: a created visit, its replay and a 409 with current', async () => {
    const world = await buildWorld(harness.server);
    const key = 'POST /sites/{siteId}/checkins/vehicles';
    const arrive = (idempotencyKey: string) =>
      world.api.post(`/v1/sites/${world.siteId}/checkins/vehicles`, { licensePlate: 'DOC 1' }, { idempotencyKey });
    const created = await arrive('doc-1');
    const replayed = await arrive('doc-1');
    const conflict = await arrive('doc-2');
    expect([created.status, replayed.headers.get('Idempotent-Replayed'), conflict.status]).toEqual([201, 'true', 409]);
    const validator = documentValidator(doc);
    expect(validator.responseErrors(key, 201, created.body)).toEqual([]);
    expect(validator.responseErrors(key, 409, conflict.body)).toEqual([]);
    expect(conflict.body).toMatchObject({ code: 'VEHICLE_ALREADY_ON_SITE', current: { licensePlate: 'DOC 1' } });
    // The schema of a 409 does check `current` (this test could fail).
    expect(
      validator.responseErrors(key, 409, { ...(conflict.body as object), current: { licensePlate: 5 } }),
    ).not.toEqual([]);
  });

  it('types a 409 current per operation and bounds Problem.status', () => {
    const conflictOf = (key: string) =>
      (op(key).responses['409']?.content?.['application/problem+json']?.schema as { $ref: string }).$ref;
    expect(conflictOf('POST /sites/{siteId}/checkins/vehicles')).toBe('#/components/schemas/VehicleCheckinConflict');
    expect(conflictOf('POST /sites/{siteId}/checkins/people/{checkinId}/breaks/start')).toBe(
      '#/components/schemas/PersonCheckinConflict',
    );
    expect(conflictOf('POST /profiles/vehicles')).toBe('#/components/schemas/VehicleResponseConflict');
    expect(doc.components.schemas?.Problem).toMatchObject({ properties: { status: { minimum: 400, maximum: 599 } } });
  });
});
