/**
 * Malformed bodies, headers, path ids and query strings against every declared endpoint (fast-check):
 * never a 5xx; every error is problem+json with the fields of docs/api.md (Errors); and a rejected request leaves
 * the database as it was (row counts of every table), but for the Idempotency-Key record of a 409/422 the
 * handler itself returned, which the API stores on purpose (docs/api.md, Idempotency).
 */
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { Problem } from '../../shared/src/schemas/common';
import { routes } from '../../server/src/routes';
import { serverForFile } from '../support/serverAndWorld';
import { TEST_ADMIN_TOKEN } from '../support/testServer';
import { type FuzzRequest, requestsFor } from './fuzzArbitraries';
import { type FuzzWorld, rowCounts, seedFuzzWorld } from './fuzzWorld';

/** Runs per endpoint: about 55 endpoints × 10 ≈ 550 requests, each with two row counts, in well under a minute. */
const RUNS_PER_ROUTE = Number(process.env.FUZZ_RUNS ?? 10);
const STACK_OR_SQL = /\n\s+at \S|\bSELECT\b.+\bFROM\b|\bINSERT INTO\b|SequelizeDatabaseError/;

// No rate limit in the way of the runs; private webhook URLs allowed so a valid subscription can be seeded.
const harness = serverForFile({ RATE_LIMIT_PER_MINUTE: '1000000000', WEBHOOK_ALLOW_PRIVATE_URLS: 'true' });
let fuzz: FuzzWorld;

beforeAll(async () => {
  fuzz = await seedFuzzWorld(harness.server);
});

interface Answer {
  status: number;
  type: string;
  requestId: string | null;
  replayed: boolean;
  text: string;
}

async function send(method: string, request: FuzzRequest): Promise<Answer> {
  const response = await fetch(`${harness.server.baseUrl}${request.path}${request.query}`, {
    method,
    headers: request.headers,
    body: request.body,
  });
  return {
    status: response.status,
    type: response.headers.get('content-type') ?? '',
    requestId: response.headers.get('x-request-id'),
    replayed: response.headers.get('idempotent-replayed') === 'true',
    text: await response.text(),
  };
}

/** What every error promises (docs/api.md, Errors). */
function expectProblem(answer: Answer, described: string): void {
  expect(answer.type, described).toMatch(/^application\/problem\+json/);
  const parsed = Problem.safeParse(JSON.parse(answer.text));
  expect(parsed.success, `${described}: ${answer.text}`).toBe(true);
  if (!parsed.success) return;
  const problem = parsed.data;
  expect(problem.status, described).toBe(answer.status);
  expect(problem.type, described).toBe(`urn:problem:${problem.code.toLowerCase().replaceAll('_', '-')}`);
  expect(problem.instance.startsWith('/'), described).toBe(true);
  // A replayed stored problem keeps the requestId of the request that produced it (docs/api.md, Idempotency).
  if (!answer.replayed) expect(problem.requestId, described).toBe(answer.requestId);
  if (problem.errors !== undefined) expect(answer.status, `${described}: errors only on 422`).toBe(422);
  expect(answer.text, described).not.toMatch(STACK_OR_SQL);
}

/** The row counts may differ only by the key record a stored 409/422 adds. */
function expectUnchanged(
  before: Record<string, number>,
  after: Record<string, number>,
  request: FuzzRequest,
  answer: Answer,
  described: string,
): void {
  const changed = Object.keys({ ...before, ...after }).filter((table) => before[table] !== after[table]);
  const storedOutcome = request.key !== undefined && (answer.status === 409 || answer.status === 422);
  const allowed =
    storedOutcome &&
    changed.every((table) => table === 'idempotency_keys') &&
    (after.idempotency_keys ?? 0) - (before.idempotency_keys ?? 0) === 1;
  if (!allowed) expect(changed, `${described} changed the database`).toEqual([]);
}

describe('fuzzing every endpoint with malformed input', () => {
  it('covers every declared route', () => {
    expect(routes.length).toBeGreaterThan(40);
  });

  it('refuses a body nested thousands deep with 422 (found by this fuzzer: it overflowed the stack, a 500)', async () => {
    const body = `{"name":"L","a":${'['.repeat(5_000)}${']'.repeat(5_000)}}`;
    const answer = await send('POST', {
      path: '/v1/labels/people',
      query: '',
      headers: { Authorization: `Bearer ${fuzz.world.token}`, 'Content-Type': 'application/json' },
      body,
      key: undefined,
    });
    expect(answer.status).toBe(422);
    expectProblem(answer, 'deep body');
    expect(answer.text).toContain('levels deep');
  });

  // Deletes last, so the seeded resources stay there for every other endpoint to reach past the 404. The event
  // stream is left out: a request it accepts never ends (test/server/eventStream.test.ts tries its refusals).
  const fuzzed = routes.filter((route) => route.path !== '/events');
  const ordered = [
    ...fuzzed.filter((route) => route.method !== 'DELETE'),
    ...fuzzed.filter((route) => route.method === 'DELETE'),
  ];
  for (const route of ordered) {
    it(`${route.method} /v1${route.path}: no 5xx, problem+json errors, nothing written by a rejection`, async () => {
      await fc.assert(
        fc.asyncProperty(requestsFor(fuzz, route, TEST_ADMIN_TOKEN), async (request) => {
          const before = await rowCounts(harness.server.database);
          const answer = await send(route.method, request);
          const described = `${route.method} ${request.path}${request.query} → ${answer.status}`;
          expect(answer.status, `${described}: ${answer.text}`).toBeLessThan(500);
          if (answer.status < 400) return;
          expectProblem(answer, described);
          expectUnchanged(before, await rowCounts(harness.server.database), request, answer, described);
        }),
        { numRuns: RUNS_PER_ROUTE },
      );
    });
  }
});
