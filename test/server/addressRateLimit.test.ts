import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Problem } from '../../shared/src/schemas/common';
import { generateToken } from '../../server/src/auth/tokenFormat';
import { observeStatements } from '../../server/src/db/query';
import { type World, buildWorld } from '../support/factories';
import { type ApiResponse, apiClient } from '../support/http';
import { TEST_ADMIN_TOKEN, type TestServer, startTestServer } from '../support/testServer';

const LIMIT = 20;
// A fixed clock: the one-minute window cannot turn over in the middle of a test.
const now = new Date('2026-11-22T10:00:05.000Z');

function expectLimited(response: ApiResponse<Problem>): void {
  expect(response.status, response.text).toBe(429);
  expect(response.body.code).toBe('RATE_LIMITED');
  expect(Number(response.headers.get('retry-after'))).toBe(55);
}

describe('requests without a valid token, limited per client address', () => {
  let server: TestServer;
  let world: World;
  let lookups = 0;
  let stopObserving: () => void = () => undefined;

  beforeAll(async () => {
    server = await startTestServer({ RATE_LIMIT_PER_MINUTE: String(LIMIT) }, { clock: () => now });
    world = await buildWorld(server);
    stopObserving = observeStatements(server.database, (statement) => {
      if (/FROM api_tokens/.test(statement.text)) lookups += 1;
    });
  });
  afterAll(async () => {
    stopObserving();
    await server?.close();
  });

  it("a valid token spends its own budget, not the address's; forged tokens share the address's, then 429 with no database lookup", async () => {
    for (let i = 0; i < LIMIT / 2; i += 1) expect((await world.api.get('/v1/sites')).status).toBe(200);

    const forged = () => apiClient(server.baseUrl, generateToken()).get<Problem>('/v1/sites');
    lookups = 0;
    for (let i = 0; i < LIMIT; i += 1) expect((await forged()).status).toBe(401);
    expect(lookups).toBe(LIMIT);
    for (let i = 0; i < 30; i += 1) expectLimited(await forged());
    expect(lookups, 'a refused flood costs no token lookup').toBe(LIMIT);

    // No token at all, a malformed one, and the management API: the same address, the same spent budget.
    expectLimited(await apiClient(server.baseUrl).get<Problem>('/v1/sites'));
    expectLimited(await apiClient(server.baseUrl, 'not-a-token').get<Problem>('/v1/sites'));
    expectLimited(
      await apiClient(server.baseUrl, TEST_ADMIN_TOKEN).post<Problem>('/v1/admin/accounts', { name: 'Flooded' }),
    );
    // The valid token keeps working on its own budget (10 of 20 left).
    const valid = await world.api.get('/v1/sites');
    expect(valid.status).toBe(200);
    expect(valid.headers.get('ratelimit')).toBe('"default";r=9;t=55');
  });

  it('ignores X-Forwarded-For unless TRUST_PROXY=true: a forged header does not buy a new budget', async () => {
    const response = await apiClient(server.baseUrl).get<Problem>('/v1/sites', {
      headers: { 'X-Forwarded-For': '198.51.100.99' },
    });
    expectLimited(response);
  });
});

describe('the management API, limited per client address', () => {
  it('counts every /v1/admin request, with the right ADMIN_TOKEN too', async () => {
    const server = await startTestServer({ RATE_LIMIT_PER_MINUTE: '5' }, { clock: () => now });
    try {
      const admin = apiClient(server.baseUrl, TEST_ADMIN_TOKEN);
      for (let i = 0; i < 5; i += 1)
        expect((await admin.post('/v1/admin/accounts', { name: `Account ${i}` })).status).toBe(201);
      expectLimited(await admin.post<Problem>('/v1/admin/accounts', { name: 'One too many' }));
    } finally {
      await server.close();
    }
  });
});

describe('behind a proxy (TRUST_PROXY=true)', () => {
  it('takes the client address from the last X-Forwarded-For entry: each address has its own budget', async () => {
    const server = await startTestServer({ RATE_LIMIT_PER_MINUTE: '3', TRUST_PROXY: 'true' }, { clock: () => now });
    try {
      const from = (address: string) =>
        apiClient(server.baseUrl).get<Problem>('/v1/sites', {
          headers: { 'X-Forwarded-For': `203.0.113.1, ${address}` },
        });
      for (let i = 0; i < 3; i += 1) expect((await from('198.51.100.1')).status).toBe(401);
      expectLimited(await from('198.51.100.1'));
      expect((await from('198.51.100.2')).status).toBe(401);
      // IPv6 clients are counted by their /64, which one subscriber holds whole.
      for (let i = 0; i < 3; i += 1) expect((await from(`2001:db8:1:2::${i + 1}`)).status).toBe(401);
      expectLimited(await from('2001:db8:1:2::ffff'));
      expect((await from('2001:db8:1:3::1')).status).toBe(401);
    } finally {
      await server.close();
    }
  });
});
