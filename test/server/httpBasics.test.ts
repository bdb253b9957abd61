import http from 'node:http';
import net from 'node:net';
import { describe, expect, it } from 'vitest';
import type { Problem } from '../../shared/src/schemas/common';
import type { PersonCheckin } from '../../shared/src/schemas/personCheckins';
import type { Site } from '../../shared/src/schemas/sites';
import { buildToken, visitor } from '../support/factories';
import { type ApiResponse, apiClient } from '../support/http';
import { serverAndWorld } from '../support/serverAndWorld';
import { TEST_ADMIN_TOKEN } from '../support/testServer';

const harness = serverAndWorld();

const people = () => `/v1/sites/${harness.world.siteId}/checkins/people`;

interface RawResponse {
  status: number;
  headers: http.IncomingHttpHeaders;
  text: string;
}

/** A request through node:http, for what fetch will not send (chunked bodies without a length, odd headers). */
function rawRequest(
  method: string,
  path: string,
  options: { headers?: Record<string, string>; chunks?: Buffer[] } = {},
): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const request = http.request(
      `${harness.server.baseUrl}${path}`,
      { method, headers: options.headers, agent: false },
      (response) => {
        const parts: Buffer[] = [];
        response.on('data', (chunk: Buffer) => parts.push(chunk));
        response.on('end', () =>
          resolve({
            status: response.statusCode ?? 0,
            headers: response.headers,
            text: Buffer.concat(parts).toString('utf8'),
          }),
        );
        response.on('error', reject);
      },
    );
    // The server may answer (413) and close before it has read everything we send: that is fine.
    request.on('error', reject);
    for (const chunk of options.chunks ?? []) request.write(chunk);
    request.end();
  });
}

const LEAK =
  /\bat\s+\S+\s+\(|\.ts:\d+|node_modules|\bSELECT\b|\bINSERT\b|\bUPDATE\s+\w+\s+SET\b|\bFROM\s+\w+|\bWHERE\b|relation "|syntax error|SQLSTATE|Sequelize|violates/i;

/** Every error: problem+json with all RFC 9457 members, the request path as instance, the X-Request-Id echoed, nothing leaked. */
function expectProblem(
  response: { status: number; headers: Headers; body: unknown; text: string },
  status: number,
  code: string,
  instance: string,
): Problem {
  expect(response.status).toBe(status);
  expect(response.headers.get('content-type')).toMatch(/^application\/problem\+json/);
  const body = JSON.parse(response.text) as Problem;
  expect(body).toMatchObject({ status, code, instance });
  expect(typeof body.type).toBe('string');
  expect(body.type.length).toBeGreaterThan(0);
  expect(typeof body.title).toBe('string');
  expect(body.title.length).toBeGreaterThan(0);
  expect(typeof body.detail).toBe('string');
  expect(body.detail.length).toBeGreaterThan(0);
  expect(body.requestId).toBe(response.headers.get('x-request-id'));
  expect(body.requestId.length).toBeGreaterThan(0);
  expect(response.text).not.toMatch(LEAK);
  expect(body).not.toHaveProperty('stack');
  if (status !== 422) expect(body).not.toHaveProperty('errors');
  return body;
}

/** The same checks for a response read through node:http. */
function expectRawProblem(response: RawResponse, status: number, code: string, instance: string): Problem {
  const headers = new Headers();
  for (const [name, value] of Object.entries(response.headers)) {
    if (typeof value === 'string') headers.set(name, value);
  }
  return expectProblem(
    { status: response.status, headers, body: undefined, text: response.text },
    status,
    code,
    instance,
  );
}

async function count(): Promise<number> {
  const list = await harness.world.api.get<{ data: PersonCheckin[] }>(`${people()}?limit=200`);
  expect(list.status).toBe(200);
  return list.body.data.length;
}

describe('request bodies', () => {
  it('refuses a body over 64 KiB with 413 PAYLOAD_TOO_LARGE (declared length)', async () => {
    const big = visitor('Big', 'Body', { purpose: 'x'.repeat(70 * 1024) });
    const response = await harness.world.api.post<Problem>(people(), big);
    expectProblem(response, 413, 'PAYLOAD_TOO_LARGE', people());
  });

  it('refuses a chunked body that grows over 64 KiB with 413 (no declared length)', async () => {
    const head = Buffer.from('{"person":{"firstName":"Big","lastName":"Chunks"},"purpose":"');
    const filler = Buffer.alloc(8 * 1024, 'x');
    const response = await rawRequest('POST', people(), {
      headers: {
        Authorization: `Bearer ${harness.world.token}`,
        'Content-Type': 'application/json',
        'Transfer-Encoding': 'chunked',
      },
      chunks: [head, ...Array.from({ length: 9 }, () => filler), Buffer.from('"}')],
    });
    expectRawProblem(response, 413, 'PAYLOAD_TOO_LARGE', people());
  });

  it('accepts a body of exactly 64 KiB and refuses one byte more', async () => {
    const json = JSON.stringify(visitor('Exactly', 'Full'));
    // JSON may carry any amount of whitespace: padding makes the size exact without touching the content.
    const exact = json + ' '.repeat(64 * 1024 - Buffer.byteLength(json));
    expect(Buffer.byteLength(exact)).toBe(65_536);
    const headers = { 'Content-Type': 'application/json' };
    const accepted = await harness.world.api.request<PersonCheckin>('POST', people(), { rawBody: exact, headers });
    expect(accepted.status).toBe(201);
    expect(accepted.body.person.firstName).toBe('Exactly');
    const refused = await harness.world.api.request<Problem>('POST', people(), { rawBody: `${exact} `, headers });
    expectProblem(refused, 413, 'PAYLOAD_TOO_LARGE', people());
  });

  it('refuses a text/plain body with 415 UNSUPPORTED_MEDIA_TYPE', async () => {
    const before = await count();
    const response = await harness.world.api.request<Problem>('POST', people(), {
      rawBody: JSON.stringify(visitor()),
      headers: { 'Content-Type': 'text/plain' },
    });
    expectProblem(response, 415, 'UNSUPPORTED_MEDIA_TYPE', people());
    const form = await harness.world.api.request<Problem>('POST', people(), {
      rawBody: 'person=Ada',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    });
    expectProblem(form, 415, 'UNSUPPORTED_MEDIA_TYPE', people());
    expect(await count()).toBe(before);
  });

  it('accepts application/json with a charset parameter', async () => {
    const response = await harness.world.api.request<PersonCheckin>('POST', people(), {
      rawBody: JSON.stringify(visitor('Char', 'Set')),
      headers: { 'Content-Type': 'application/json; charset=utf-8' },
    });
    expect(response.status).toBe(201);
    expect(response.body.person.firstName).toBe('Char');
  });

  it('refuses malformed JSON with 400 MALFORMED_JSON', async () => {
    for (const rawBody of ['{"person":', '{person: {}}', "{'a': 1}", '{"a":1}}']) {
      const response = await harness.world.api.request<Problem>('POST', people(), {
        rawBody,
        headers: { 'Content-Type': 'application/json' },
      });
      expectProblem(response, 400, 'MALFORMED_JSON', people());
    }
  });

  it('refuses an unknown field with 422 VALIDATION_FAILED listing {path, message}', async () => {
    const response = await harness.world.api.post<Problem>(
      people(),
      visitor('Un', 'Known', { entry: { source: 'KIOSK' } }),
    );
    const body = expectProblem(response, 422, 'VALIDATION_FAILED', people());
    expect(Array.isArray(body.errors)).toBe(true);
    expect(body.errors?.length).toBeGreaterThan(0);
    for (const error of body.errors ?? []) {
      expect(Object.keys(error).sort()).toEqual(['message', 'path']);
      expect(typeof error.path).toBe('string');
      expect(typeof error.message).toBe('string');
    }
    expect(body.errors?.some((error) => `${error.path} ${error.message}`.includes('entry'))).toBe(true);
  });

  it('names the nested path of a field that fails validation', async () => {
    const response = await harness.world.api.post<Problem>(people(), {
      person: { firstName: 'Ada', lastName: 'L', nickname: 'x' },
      labelIds: ['a'],
    });
    const body = expectProblem(response, 422, 'VALIDATION_FAILED', people());
    const text = (body.errors ?? []).map((error) => `${error.path}: ${error.message}`).join('\n');
    expect(text).toMatch(/person/);
    expect(text).toMatch(/nickname/);
    expect(body.errors?.some((error) => error.path === 'labelIds.0')).toBe(true);
  });

  it('says in plain words what is missing: a required field, or the whole body; and what a query parameter holds', async () => {
    const missing = await harness.world.api.post<Problem>('/v1/profiles/vehicles', { make: 'Volvo' });
    expect(expectProblem(missing, 422, 'VALIDATION_FAILED', '/v1/profiles/vehicles').errors).toEqual([
      { path: 'licensePlate', message: 'Required' },
    ]);
    const empty = await harness.world.api.request<Problem>('POST', people(), {
      headers: { 'Content-Type': 'application/json' },
    });
    expect(expectProblem(empty, 422, 'VALIDATION_FAILED', people()).errors).toEqual([
      { path: '', message: 'The body must be a JSON object' },
    ]);
    const status = await harness.world.api.get<Problem>(`${people()}?status=IN,LEFT`);
    expect(expectProblem(status, 400, 'INVALID_QUERY', people()).detail).toMatch(
      /^Query parameter status: Invalid option/,
    );
    const stray = await harness.world.api.get<Problem>(`${people()}?foo=1&bar=2`);
    expect(expectProblem(stray, 400, 'INVALID_QUERY', people()).detail).toBe('Unknown query parameter foo, bar');
  });

  it('refuses an unknown field on an action body and a non-object body with 422', async () => {
    const created = await harness.world.api.post<PersonCheckin>(people(), visitor());
    expect(created.status).toBe(201);
    const item = `${people()}/${created.body.checkinId}`;
    const unknown = await harness.world.api.post<Problem>(`${item}/breaks/start`, { at: 'now' });
    expectProblem(unknown, 422, 'VALIDATION_FAILED', `${item}/breaks/start`);
    for (const body of [[], 'text', 42, null]) {
      const response = await harness.world.api.post<Problem>(people(), body);
      expectProblem(response, 422, 'VALIDATION_FAILED', people());
    }
  });

  it('refuses a lone UTF-16 surrogate (which PostgreSQL text and jsonb cannot hold) with 422 naming the field, not a 500', async () => {
    const body =
      '{"person":{"firstName":"Ada","lastName":"Lone\\ud800"},"customFields":{"x\\udc00":"v","ok":"\\ud83d\\ude00"}}';
    const response = await harness.world.api.request<Problem>('POST', people(), {
      rawBody: body,
      headers: { 'Content-Type': 'application/json' },
    });
    expect(response.status, response.text).toBe(422);
    expect(response.body.code).toBe('VALIDATION_FAILED');
    expect(response.body.errors?.map((error) => error.path).sort()).toEqual([
      'customFields.x\udc00',
      'person.lastName',
    ]);
    // A well-formed pair (an emoji) is fine.
    const emoji = await harness.world.api.post(people(), visitor('Ada', 'Smile\ud83d\ude00'));
    expect(emoji.status).toBe(201);
  });

  it('refuses a NUL character (which PostgreSQL text cannot hold) with 422 naming the field, not a 500', async () => {
    const before = await count();
    const response = await harness.world.api.post<Problem>(
      people(),
      visitor('Nul\u0000Byte', 'Person', { customFields: { 'k\u0000': 'v' } }),
    );
    const body = expectProblem(response, 422, 'VALIDATION_FAILED', people());
    const paths = (body.errors ?? []).map((error) => error.path);
    expect(paths).toContain('person.firstName');
    expect(paths).toContain('customFields.k\u0000');
    expect(await count()).toBe(before);
    expect(harness.server.logs.filter((line) => line.level === 'error')).toEqual([]);
  });

  it('refuses a field named __proto__ (which validation would drop without a word) with 422 naming it', async () => {
    const before = await count();
    // Sent as text: JSON.parse makes it a field of its own, as it does for any client's body.
    const body =
      '{"person":{"firstName":"Ada","lastName":"Lovelace","__proto__":{"x":1}},"customFields":{"__proto__":"x"}}';
    const response = await harness.world.api.request<Problem>('POST', people(), {
      rawBody: body,
      headers: { 'Content-Type': 'application/json' },
    });
    const problem = expectProblem(response, 422, 'VALIDATION_FAILED', people());
    expect((problem.errors ?? []).map((error) => error.path).sort()).toEqual([
      'customFields.__proto__',
      'person.__proto__',
    ]);
    expect(await count()).toBe(before);
  });
});

describe('problem details', () => {
  it('401 without a token is a problem with WWW-Authenticate: Bearer', async () => {
    const anonymous = apiClient(harness.server.baseUrl);
    const response = await anonymous.get<Problem>('/v1/sites');
    expectProblem(response, 401, 'UNAUTHENTICATED', '/v1/sites');
    expect(response.headers.get('www-authenticate')).toMatch(/^Bearer/);
  });

  it('instance is the path without the query string', async () => {
    const response = await harness.world.api.get<Problem>(`${people()}?limit=0`);
    expectProblem(response, 400, 'INVALID_QUERY', people());
  });

  it('requestId in the body is the X-Request-Id the client sent', async () => {
    const response = await harness.world.api.get<Problem>('/v1/sites/abc', {
      headers: { 'X-Request-Id': 'client-req.42:A_b' },
    });
    const body = expectProblem(response, 404, 'NOT_FOUND', '/v1/sites/abc');
    expect(body.requestId).toBe('client-req.42:A_b');
  });
});

describe('path ids', () => {
  const bad = ['abc', '0', '-1', '1.5', '99999999999999999999', '1e3', '01', '%20'];

  it('a site id that is not a positive integer is 404 NOT_FOUND, not 400', async () => {
    for (const id of bad) {
      const path = `/v1/sites/${id}`;
      const response = await harness.world.api.get<Problem>(path);
      expect(response.status, `GET ${path}`).toBe(404);
      expectProblem(response, 404, 'NOT_FOUND', path);
    }
  });

  it('a check-in id that is not a positive integer is 404 on reads and writes', async () => {
    for (const id of ['abc', '0', '-1', '1.5', '99999999999999999999']) {
      const item = `${people()}/${id}`;
      expectProblem(await harness.world.api.get<Problem>(item), 404, 'NOT_FOUND', item);
      expectProblem(
        await harness.world.api.post<Problem>(`${item}/breaks/start`, {}),
        404,
        'NOT_FOUND',
        `${item}/breaks/start`,
      );
      expectProblem(await harness.world.api.patch<Problem>(item, {}), 404, 'NOT_FOUND', item);
    }
    for (const id of ['abc', '0', '-1', '1.5', '99999999999999999999']) {
      const path = `/v1/sites/${id}/checkins/people`;
      expectProblem(await harness.world.api.post<Problem>(path, visitor()), 404, 'NOT_FOUND', path);
    }
  });

  it('a well-formed id that names nothing is 404 too, however large (never a database error)', async () => {
    const admin = apiClient(harness.server.baseUrl, TEST_ADMIN_TOKEN);
    for (const id of ['123456', '2147483647', '2147483648', '9007199254740991', '9999999999999999']) {
      const cases: Array<[string, () => Promise<ApiResponse<Problem>>, string]> = [
        ['GET', () => harness.world.api.get<Problem>(`/v1/sites/${id}`), `/v1/sites/${id}`],
        [
          'GET',
          () => harness.world.api.get<Problem>(`/v1/sites/${id}/checkins/people/config`),
          `/v1/sites/${id}/checkins/people/config`,
        ],
        [
          'POST',
          () => harness.world.api.post<Problem>(`/v1/sites/${id}/checkins/people`, visitor()),
          `/v1/sites/${id}/checkins/people`,
        ],
        ['GET', () => harness.world.api.get<Problem>(`${people()}/${id}`), `${people()}/${id}`],
        [
          'POST',
          () => harness.world.api.post<Problem>(`${people()}/${id}/breaks/start`, {}),
          `${people()}/${id}/breaks/start`,
        ],
        ['GET', () => harness.world.api.get<Problem>(`/v1/labels/people/${id}`), `/v1/labels/people/${id}`],
        ['DELETE', () => harness.world.api.delete<Problem>(`/v1/watchlist/people/${id}`), `/v1/watchlist/people/${id}`],
        [
          'POST',
          () => admin.post<Problem>(`/v1/admin/accounts/${id}/sites`, { name: 'Nowhere' }),
          `/v1/admin/accounts/${id}/sites`,
        ],
        ['DELETE', () => admin.delete<Problem>(`/v1/admin/tokens/${id}`), `/v1/admin/tokens/${id}`],
      ];
      for (const [method, send, path] of cases) {
        const response = await send();
        expect(response.status, `${method} ${path}`).toBe(404);
        expectProblem(response, 404, 'NOT_FOUND', path);
      }
    }
    expect(harness.server.logs.filter((line) => line.level === 'error')).toEqual([]);
  });
});

describe('routing', () => {
  it('an unknown route is a 404 problem', async () => {
    for (const path of ['/v1/nope', '/nope', '/v1/sites/1/unknown', '/v2/sites']) {
      const response = await harness.world.api.get<Problem>(path);
      expectProblem(response, 404, 'NOT_FOUND', path);
    }
    const anonymous = apiClient(harness.server.baseUrl);
    expectProblem(await anonymous.post<Problem>('/v1/nothing-here', {}), 404, 'NOT_FOUND', '/v1/nothing-here');
  });

  it('a wrong method on a known path is a 405 problem', async () => {
    const site = `/v1/sites/${harness.world.siteId}`;
    for (const [method, path] of [
      ['DELETE', '/v1/sites/1'],
      ['DELETE', site],
      ['POST', site],
      ['PUT', '/v1/sites'],
      ['DELETE', people()],
    ] as const) {
      const response = await harness.world.api.request<Problem>(method, path);
      expectProblem(response, 405, 'METHOD_NOT_ALLOWED', path);
      // RFC 9110: a 405 names the methods the resource takes.
      const allow = (response.headers.get('allow') ?? '').split(',').map((name) => name.trim());
      expect(allow.length, `Allow on ${method} ${path}`).toBeGreaterThan(0);
      expect(allow).not.toContain(method);
    }
    const site405 = await harness.world.api.request('DELETE', site);
    expect((site405.headers.get('allow') ?? '').split(',').map((name) => name.trim())).toContain('GET');
    const list405 = await harness.world.api.request('DELETE', people());
    const listAllow = (list405.headers.get('allow') ?? '').split(',').map((name) => name.trim());
    expect(listAllow).toEqual(expect.arrayContaining(['GET', 'POST']));
    expect(list405.headers.get('access-control-allow-origin')).toBe('*');
  });

  it('a method nothing implements on a known path is a problem too, never an HTML page', async () => {
    const response = await rawRequest('PROPFIND', `/v1/sites/${harness.world.siteId}`, {
      headers: { Authorization: `Bearer ${harness.world.token}` },
    });
    expect([405, 501]).toContain(response.status);
    const body = expectRawProblem(response, response.status, 'METHOD_NOT_ALLOWED', `/v1/sites/${harness.world.siteId}`);
    expect(body.status).toBe(response.status);
  });
});

describe('X-Request-Id', () => {
  it('is generated when the client sends none', async () => {
    const first = await harness.world.api.get('/healthz');
    const second = await harness.world.api.get('/healthz');
    const a = first.headers.get('x-request-id');
    const b = second.headers.get('x-request-id');
    expect(a).toMatch(/^[A-Za-z0-9._:-]{1,128}$/);
    expect(b).toMatch(/^[A-Za-z0-9._:-]{1,128}$/);
    expect(a).not.toBe(b);
  });

  it('is echoed when safe (≤ 128 of [A-Za-z0-9._:-]), on success and on error', async () => {
    const safe = ['abc', 'A-b_c.d:e', 'x'.repeat(128), '0'];
    for (const id of safe) {
      const ok = await harness.world.api.get<{ data: Site[] }>('/v1/sites', { headers: { 'X-Request-Id': id } });
      expect(ok.status).toBe(200);
      expect(ok.headers.get('x-request-id')).toBe(id);
      const error = await harness.world.api.get<Problem>('/v1/sites/abc', { headers: { 'X-Request-Id': id } });
      expect(error.headers.get('x-request-id')).toBe(id);
      expect(error.body.requestId).toBe(id);
    }
  });

  it('is replaced by a generated one when unsafe or too long', async () => {
    const unsafe = ['x'.repeat(129), 'has space', 'semi;colon', 'slash/ed', '<script>', 'quote"d', 'é'];
    for (const id of unsafe) {
      const response = await rawRequest('GET', '/v1/sites/abc', {
        headers: { Authorization: `Bearer ${harness.world.token}`, 'X-Request-Id': id },
      });
      const echoed = response.headers['x-request-id'];
      expect(typeof echoed).toBe('string');
      expect(echoed).not.toBe(id);
      expect(echoed).toMatch(/^[A-Za-z0-9._:-]{1,128}$/);
      const body = expectRawProblem(response, 404, 'NOT_FOUND', '/v1/sites/abc');
      expect(body.requestId).toBe(echoed);
    }
  });
});

describe('CORS', () => {
  it('allows any origin on success and error responses and exposes the API headers', async () => {
    const origin = { Origin: 'https://kiosk.example.com' };
    for (const response of [
      await harness.world.api.get('/v1/sites', { headers: origin }),
      await harness.world.api.get('/v1/sites/abc', { headers: origin }),
      await apiClient(harness.server.baseUrl).get('/v1/sites', { headers: origin }),
      await harness.world.api.get('/healthz', { headers: origin }),
    ]) {
      expect(response.headers.get('access-control-allow-origin')).toBe('*');
      const exposed = (response.headers.get('access-control-expose-headers') ?? '')
        .split(',')
        .map((name) => name.trim().toLowerCase());
      for (const name of [
        'Date',
        'ETag',
        'Idempotent-Replayed',
        'RateLimit',
        'RateLimit-Policy',
        'Retry-After',
        'X-Request-Id',
      ]) {
        expect(exposed).toContain(name.toLowerCase());
      }
      expect(response.headers.get('access-control-allow-credentials')).toBeNull();
    }
  });

  it('answers a preflight with 204, the allowed headers and methods, without a token', async () => {
    const response = await apiClient(harness.server.baseUrl).request('OPTIONS', people(), {
      headers: {
        Origin: 'https://kiosk.example.com',
        'Access-Control-Request-Method': 'POST',
        'Access-Control-Request-Headers': 'authorization, content-type, idempotency-key',
      },
    });
    expect(response.status).toBe(204);
    expect(response.text).toBe('');
    expect(response.headers.get('access-control-allow-origin')).toBe('*');
    const allowed = (response.headers.get('access-control-allow-headers') ?? '')
      .split(',')
      .map((name) => name.trim().toLowerCase());
    for (const name of ['Authorization', 'Content-Type', 'Idempotency-Key', 'If-None-Match', 'X-Request-Id']) {
      expect(allowed).toContain(name.toLowerCase());
    }
    const methods = (response.headers.get('access-control-allow-methods') ?? '').split(',').map((name) => name.trim());
    for (const method of ['GET', 'POST', 'PUT', 'PATCH', 'DELETE']) expect(methods).toContain(method);
    const exposed = (response.headers.get('access-control-expose-headers') ?? '').toLowerCase();
    expect(exposed).toContain('x-request-id');
    expect(response.headers.get('x-request-id')).toMatch(/^[A-Za-z0-9._:-]{1,128}$/);
  });

  it('a preflight for a path with a non-numeric id or an unknown path is still 204 (the browser has not sent the request yet)', async () => {
    for (const path of ['/v1/sites/abc', '/v1/sites/1/checkins/people/1/breaks/end']) {
      const response = await apiClient(harness.server.baseUrl).request('OPTIONS', path, {
        headers: { Origin: 'https://a.example', 'Access-Control-Request-Method': 'PUT' },
      });
      expect(response.status).toBe(204);
    }
  });
});

describe('health', () => {
  it('/healthz and /readyz are 200 without a token', async () => {
    const anonymous = apiClient(harness.server.baseUrl);
    const health = await anonymous.get<{ status: string }>('/healthz');
    expect(health.status).toBe(200);
    expect(health.headers.get('x-request-id')).toBeTruthy();
    const ready = await anonymous.get<{ status: string }>('/readyz');
    expect(ready.status).toBe(200);
    expect(ready.headers.get('content-type')).toMatch(/json/);
  });

  it('/healthz and /readyz ignore a bad token', async () => {
    const bogus = apiClient(harness.server.baseUrl, 'not-a-token');
    expect((await bogus.get('/healthz')).status).toBe(200);
    expect((await bogus.get('/readyz')).status).toBe(200);
  });
});

describe('Idempotency-Key syntax', () => {
  const invalid: Array<[string, string]> = [
    ['a space', 'has space'],
    ['a tab (control character)', 'tab\there'],
    ['256 characters', 'k'.repeat(256)],
    ['an empty quoted string', '""'],
    ['a quote inside a quoted key', '"a"b"'],
    // Sent empty, not absent: a client that meant a key and built none must hear so, not lose its protection.
    ['an empty header', ''],
  ];

  for (const [label, key] of invalid) {
    it(`refuses a key with ${label}: 400 INVALID_IDEMPOTENCY_KEY, nothing created`, async () => {
      const before = await count();
      const response = await harness.world.api.post<Problem>(people(), visitor('Bad', 'Key'), { idempotencyKey: key });
      expectProblem(response, 400, 'INVALID_IDEMPOTENCY_KEY', people());
      expect(await count()).toBe(before);
    });
  }

  it('refuses a key with a DEL control character sent on the wire', async () => {
    // fetch and node:http refuse to send control characters other than tab; a raw socket does not.
    const { Socket } = await import('node:net');
    const url = new URL(harness.server.baseUrl);
    const body = JSON.stringify(visitor('Raw', 'Del'));
    const socket = new Socket();
    const reply = await new Promise<string>((resolve, reject) => {
      const parts: Buffer[] = [];
      socket.on('data', (chunk: Buffer) => parts.push(chunk));
      socket.on('end', () => resolve(Buffer.concat(parts).toString('utf8')));
      socket.on('close', () => resolve(Buffer.concat(parts).toString('utf8')));
      socket.on('error', reject);
      socket.connect(Number(url.port), url.hostname, () => {
        socket.write(
          `POST ${people()} HTTP/1.1\r\nHost: ${url.host}\r\nAuthorization: Bearer ${harness.world.token}\r\n` +
            `Content-Type: application/json\r\nIdempotency-Key: del\x7fkey\r\nContent-Length: ${Buffer.byteLength(body)}\r\n` +
            `Connection: close\r\n\r\n${body}`,
        );
      });
    });
    const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(reply)?.[1]);
    // Either the HTTP parser refuses the header (400 MALFORMED_REQUEST) or the API does (400
    // INVALID_IDEMPOTENCY_KEY); never a 201, and problem+json either way.
    expect(status).toBe(400);
    expect(reply).toMatch(/application\/problem\+json/i);
    expect(reply).toMatch(/"code":"(INVALID_IDEMPOTENCY_KEY|MALFORMED_REQUEST)"/);
  });

  it('answers a bad key without a valid token 401 (authentication first), and with a token a scope short 403', async () => {
    const anonymous = await apiClient(harness.server.baseUrl).post<Problem>(people(), visitor('No', 'Token'), {
      idempotencyKey: 'has space',
    });
    expectProblem(anonymous, 401, 'UNAUTHENTICATED', people());
    expect(anonymous.headers.get('www-authenticate')).toMatch(/^Bearer/);
    const reader = await buildToken(harness.server, {
      accountId: harness.world.accountId,
      siteIds: [harness.world.siteId],
      scopes: ['checkins:read'],
    });
    const short = await apiClient(harness.server.baseUrl, reader.token).post<Problem>(
      people(),
      visitor('Read', 'Only'),
      { idempotencyKey: 'has space' },
    );
    expectProblem(short, 403, 'INSUFFICIENT_SCOPE', people());
  });

  it('accepts a key of exactly 255 visible characters', async () => {
    const key = `${'a'.repeat(250)}~!#$%`;
    expect(key).toHaveLength(255);
    const first = await harness.world.api.post<PersonCheckin>(people(), visitor('Long', 'Key'), {
      idempotencyKey: key,
    });
    expect(first.status).toBe(201);
    const again = await harness.world.api.post<PersonCheckin>(people(), visitor('Long', 'Key'), {
      idempotencyKey: key,
    });
    expect(again.status).toBe(201);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.body.checkinId).toBe(first.body.checkinId);
  });

  it('a quoted key "abc" and the bare abc are the same key', async () => {
    const before = await count();
    const first = await harness.world.api.post<PersonCheckin>(people(), visitor('Quoted', 'Key'), {
      idempotencyKey: '"abc"',
    });
    expect(first.status).toBe(201);
    expect(first.headers.get('idempotent-replayed')).toBeNull();
    const bare = await harness.world.api.post<PersonCheckin>(people(), visitor('Quoted', 'Key'), {
      idempotencyKey: 'abc',
    });
    expect(bare.status).toBe(201);
    expect(bare.headers.get('idempotent-replayed')).toBe('true');
    expect(bare.text).toBe(first.text);
    expect(await count()).toBe(before + 1);

    const quotedAgain = await harness.world.api.post<PersonCheckin>(people(), visitor('Quoted', 'Key'), {
      idempotencyKey: '"abc"',
    });
    expect(quotedAgain.headers.get('idempotent-replayed')).toBe('true');
    expect(quotedAgain.body.checkinId).toBe(first.body.checkinId);

    const other = await harness.world.api.post<Problem>(people(), visitor('Other', 'Body'), { idempotencyKey: 'abc' });
    expectProblem(other, 422, 'IDEMPOTENCY_KEY_REUSED', people());
  });
});

describe("requests Node's HTTP parser refuses", () => {
  /** Writes raw bytes to the server and reads everything it answers until it closes the connection. */
  async function raw(bytes: string): Promise<{ head: string; body: string }> {
    const url = new URL(harness.server.baseUrl);
    const socket = net.connect(Number(url.port), url.hostname);
    const chunks: Buffer[] = [];
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    socket.write(bytes);
    await new Promise<void>((resolve, reject) => {
      socket.on('close', () => resolve());
      socket.on('error', reject);
    });
    const text = Buffer.concat(chunks).toString('utf8');
    const [head = '', body = ''] = text.split('\r\n\r\n');
    return { head, body };
  }

  it('answer problem+json too: a malformed request line, and headers over the limit', async () => {
    const malformed = await raw('HELLO THERE\r\n\r\n');
    expect(malformed.head).toMatch(/^HTTP\/1\.1 400 /);
    expect(malformed.head).toMatch(/content-type: application\/problem\+json/i);
    expect(JSON.parse(malformed.body)).toMatchObject({
      status: 400,
      code: 'MALFORMED_REQUEST',
      requestId: expect.any(String),
    });

    const huge = await raw(`GET /v1/sites HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${'a'.repeat(20_000)}\r\n\r\n`);
    expect(huge.head).toMatch(/^HTTP\/1\.1 431 /);
    expect(JSON.parse(huge.body)).toMatchObject({ status: 431, code: 'HEADERS_TOO_LARGE' });
  });

  it('a client that goes away mid-body is its own doing (400), not a server or database failure', async () => {
    const url = new URL(harness.server.baseUrl);
    const before = harness.server.logs.length;
    const socket = net.connect(Number(url.port), url.hostname);
    await new Promise<void>((resolve) => socket.on('connect', () => resolve()));
    socket.write(
      `POST /v1/sites/${harness.world.siteId}/checkins/people HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${harness.world.token}\r\n` +
        'Content-Type: application/json\r\nContent-Length: 500\r\n\r\n{"person":',
    );
    await new Promise((resolve) => setTimeout(resolve, 100));
    socket.destroy();
    await new Promise((resolve) => setTimeout(resolve, 300));
    const logged = harness.server.logs.slice(before);
    expect(logged.filter((line) => line.level === 'error')).toEqual([]);
    expect(logged.filter((line) => line.message === 'request').map((line) => line.fields?.status)).toEqual([400]);
  });
});
