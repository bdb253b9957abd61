import { PassThrough } from 'node:stream';
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { Problem } from '../../shared/src/schemas/common';
import { createLogger } from '../../server/src/logger';
import { buildToken, buildWorld, visitor } from '../support/factories';
import { apiClient } from '../support/http';
import { serverAndWorld } from '../support/serverAndWorld';
import { startTestServer } from '../support/testServer';

describe('GET /metrics after traffic', () => {
  const harness = serverAndWorld({ worldPerTest: true });

  it('shows requests by method, route template and status, replays, pool use and outbox backlog', async () => {
    const { server, world } = harness;
    const people = `/v1/sites/${world.siteId}/checkins/people`;
    const key = randomUUID();
    await world.api.post(people, visitor(), { idempotencyKey: key });
    await world.api.post(people, visitor(), { idempotencyKey: key });
    await world.api.get(`${people}?limit=5`);
    await world.api.get('/v1/no/such/thing/1234');
    const scrape = await apiClient(server.baseUrl).get<string>('/metrics');
    expect(scrape.status).toBe(200);
    expect(scrape.headers.get('content-type')).toMatch(/text\/plain/);
    const text = scrape.text;
    expect(text).toMatch(
      /http_request_duration_seconds_count\{method="POST",route="\/v1\/sites\/:siteId\/checkins\/people",status_code="201"\} 2/,
    );
    expect(text).toMatch(
      /http_request_duration_seconds_count\{method="GET",route="\/v1\/sites\/:siteId\/checkins\/people",status_code="200"\} 1/,
    );
    expect(text).toMatch(/http_request_duration_seconds_count\{method="GET",route="unmatched",status_code="404"\} 1/);
    expect(text).not.toContain('/no/such/thing');
    expect(text).toMatch(/gatehouse_idempotent_replays_total 1/);
    expect(text).toMatch(/gatehouse_db_pool_in_use \d+/);
    expect(text).toMatch(/gatehouse_outbox_pending/);
    expect(text).toMatch(/gatehouse_webhook_deliveries_total/);
    expect(text).toMatch(/process_resident_memory_bytes/);
  });

  it('logs one structured line per request with its id, route, status and duration', async () => {
    const { server, world } = harness;
    const response = await world.api.get(`/v1/sites/${world.siteId}`, { headers: { 'X-Request-Id': 'log-check-1' } });
    expect(response.status).toBe(200);
    const line = server.logs.find((entry) => entry.message === 'request' && entry.fields?.requestId === 'log-check-1');
    expect(line?.fields).toMatchObject({ method: 'GET', route: '/v1/sites/:siteId', status: 200 });
    expect(typeof line?.fields?.durationMs).toBe('number');
    expect(JSON.stringify(server.logs)).not.toContain(world.token);
  });
});

describe('structured logs never carry secrets', () => {
  it('redacts authorization, token and secret fields', () => {
    const sink = new PassThrough();
    let written = '';
    sink.on('data', (chunk: Buffer) => (written += chunk.toString()));
    const log = createLogger('info', sink);
    log.info('hello', {
      authorization: 'Bearer ck_secret',
      token: 'ck_other',
      nested: { secret: 'whsec_x' },
      requestId: 'r1',
    });
    const line = JSON.parse(written.trim()) as Record<string, unknown>;
    expect(line).toMatchObject({ msg: 'hello', requestId: 'r1', authorization: '[redacted]', token: '[redacted]' });
    expect(written).not.toContain('ck_secret');
    expect(written).not.toContain('whsec_x');
  });
});

describe('rate limit per token (RATE_LIMIT_PER_MINUTE)', () => {
  it('sends RateLimit headers, answers 429 with a Retry-After, and lets the token in again once it has passed', async () => {
    let now = new Date('2026-11-22T10:00:10.000Z');
    const server = await startTestServer({ RATE_LIMIT_PER_MINUTE: '3' }, { clock: () => now });
    try {
      const world = await buildWorld(server);
      const remaining: string[] = [];
      for (let i = 0; i < 3; i += 1) {
        const response = await world.api.get(`/v1/sites/${world.siteId}`);
        expect(response.status).toBe(200);
        expect(response.headers.get('ratelimit-policy')).toBe('"default";q=3;w=60');
        remaining.push(response.headers.get('ratelimit') ?? '');
      }
      expect(remaining).toEqual(['"default";r=2;t=50', '"default";r=1;t=50', '"default";r=0;t=50']);
      const limited = await world.api.get<Problem>(`/v1/sites/${world.siteId}`);
      expect(limited.status).toBe(429);
      expect(limited.body.code).toBe('RATE_LIMITED');
      const retryAfter = Number(limited.headers.get('retry-after'));
      expect(retryAfter).toBeGreaterThanOrEqual(50);
      now = new Date(now.getTime() + retryAfter * 1000);
      const again = await world.api.get(`/v1/sites/${world.siteId}`);
      expect(again.status).toBe(200);
    } finally {
      await server.close();
    }
  });

  it("counts a known token's refused requests too (403 scope, 404 site), with their headers", async () => {
    const server = await startTestServer({ RATE_LIMIT_PER_MINUTE: '3' });
    try {
      const world = await buildWorld(server);
      const { token } = await buildToken(server, {
        accountId: world.accountId,
        siteIds: [world.siteId],
        scopes: ['checkins:read'],
      });
      const narrow = apiClient(server.baseUrl, token);
      const refused = [
        await narrow.get<Problem>(`/v1/sites/${world.otherSiteId}`),
        await narrow.post<Problem>(`/v1/sites/${world.siteId}/checkins/people`, visitor()),
        await narrow.get<Problem>(`/v1/sites/${world.otherSiteId}/checkins/people`),
      ];
      expect(refused.map((response) => [response.status, response.body.code])).toEqual([
        [404, 'NOT_FOUND'],
        [403, 'INSUFFICIENT_SCOPE'],
        [404, 'NOT_FOUND'],
      ]);
      expect(refused.map((response) => /r=(\d+)/.exec(response.headers.get('ratelimit') ?? '')?.[1])).toEqual([
        '2',
        '1',
        '0',
      ]);
      expect(refused.every((response) => response.headers.get('ratelimit-policy') === '"default";q=3;w=60')).toBe(true);
      expect((await narrow.get<Problem>(`/v1/sites/${world.otherSiteId}`)).status).toBe(429);
    } finally {
      await server.close();
    }
  });

  it('is shared by two instances on one database: their counts add up after a sync', async () => {
    const now = new Date('2026-11-22T10:00:05.000Z');
    const first = await startTestServer({ RATE_LIMIT_PER_MINUTE: '10' }, { clock: () => now });
    const second = await startTestServer(
      { RATE_LIMIT_PER_MINUTE: '10' },
      { clock: () => now, databaseUrl: first.databaseUrl },
    );
    try {
      const world = await buildWorld(first);
      const path = `/v1/sites/${world.siteId}`;
      const viaSecond = apiClient(second.baseUrl, world.token);
      for (let i = 0; i < 6; i += 1) expect((await world.api.get(path)).status).toBe(200);
      await first.limiter.sync();
      for (let i = 0; i < 6; i += 1) expect((await viaSecond.get(path)).status).toBe(200);
      await second.limiter.sync();
      await first.limiter.sync();
      expect((await viaSecond.get(path)).status).toBe(429);
      expect((await world.api.get(path)).status).toBe(429);
    } finally {
      await second.close();
      await first.close();
    }
  });
});
