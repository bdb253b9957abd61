// First: Dexie's liveQuery only works if a global IndexedDB exists when Dexie is first imported.
import 'fake-indexeddb/auto';
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { type PersonCheckin } from '../../shared/src/schemas/personCheckins';
import { parseRetryAfter } from '../../shared/src/client/http';
import { openKiosk } from '../../kiosk/src/kiosk';
import { createMemoryLock } from '../../kiosk/src/platform/memoryLock';
import type { LockProvider } from '../../kiosk/src/platform/platform';
import { testNetwork, testPlatform } from '../../kiosk/src/platform/testPlatform';
import { fullJitterBackoff, isDue } from '../../kiosk/src/sync/backoff';
import { decide } from '../../kiosk/src/sync/decide';

const SECOND = 1_000;

describe('backoff: exponential, full jitter, cap 60 s, Retry-After honoured', () => {
  it('grows as base·2^(n-1) up to the cap, anywhere between 0 and that ceiling', () => {
    const top = fullJitterBackoff({ random: () => 0.999_999 });
    expect(top.delayMs(1, undefined)).toBeCloseTo(1 * SECOND, -1);
    expect(top.delayMs(4, undefined)).toBeCloseTo(8 * SECOND, -1);
    expect(top.delayMs(30, undefined)).toBeLessThanOrEqual(60 * SECOND);
    expect(top.delayMs(30, undefined)).toBeGreaterThan(59 * SECOND);
    expect(fullJitterBackoff({ random: () => 0 }).delayMs(10, undefined)).toBe(0);
  });

  it('waits at least Retry-After (within the cap)', () => {
    const low = fullJitterBackoff({ random: () => 0 });
    expect(low.delayMs(1, 7 * SECOND)).toBe(7 * SECOND);
    expect(low.delayMs(1, 600 * SECOND)).toBe(60 * SECOND);
  });

  it('reads Retry-After as seconds or as an HTTP date', () => {
    const now = Date.parse('2026-11-21T09:00:00.000Z');
    expect(parseRetryAfter('7', now)).toBe(7_000);
    expect(parseRetryAfter('Sat, 21 Nov 2026 09:00:30 GMT', now)).toBe(30_000);
    expect(parseRetryAfter(null, now)).toBeUndefined();
  });

  it('treats a retry time further off than the cap as due (the device clock was set back)', () => {
    const policy = fullJitterBackoff();
    expect(isDue(1_000, 2_000, policy)).toBe(true);
    expect(isDue(2_000 + 30 * SECOND, 2_000, policy)).toBe(false);
    expect(isDue(2_000 + 3 * 3_600 * SECOND, 2_000, policy)).toBe(true);
  });
});

const problem = (status: number, code: string, current?: unknown) => ({
  kind: 'refused' as const,
  status,
  problem: { type: 'urn:x', title: code, status, detail: `${code}!`, code, instance: '/x', requestId: 'r', current },
  retryAfterMs: undefined,
});

describe('what is retried and what needs a person (docs/kiosk-sync.md, What happens to an answer)', () => {
  const Resource = z.object({ checkinId: z.number() });
  it.each([
    ['no answer', { kind: 'unreachable' as const, message: 'reset' }],
    ['408', problem(408, 'REQUEST_TIMEOUT')],
    ['429', problem(429, 'RATE_LIMITED')],
    ['500', problem(500, 'INTERNAL')],
    ['503', problem(503, 'UNAVAILABLE')],
    ['409 IDEMPOTENCY_KEY_IN_USE', problem(409, 'IDEMPOTENCY_KEY_IN_USE')],
  ])('%s → retry', (_name, outcome) => {
    expect(decide(outcome, Resource).type).toBe('retry');
  });

  it.each([
    ['400', problem(400, 'MALFORMED_JSON')],
    ['403', problem(403, 'INSUFFICIENT_SCOPE')],
    ['404', problem(404, 'NOT_FOUND')],
    ['409 CHECKIN_CLOSED', problem(409, 'CHECKIN_CLOSED')],
    ['422', problem(422, 'VALIDATION_FAILED')],
    ['422 IDEMPOTENCY_KEY_REUSED', problem(422, 'IDEMPOTENCY_KEY_REUSED')],
  ])('%s → Needs attention', (_name, outcome) => {
    const decision = decide(outcome, Resource);
    expect(decision).toMatchObject({
      type: 'attention',
      error: { status: outcome.status, code: outcome.problem.code },
    });
  });

  it('401 → revoked: the action stays queued as it is, for the token of a new pairing', () => {
    expect(decide(problem(401, 'UNAUTHENTICATED'), Resource)).toEqual({ type: 'revoked' });
  });

  it('keeps the current resource a 409 carries, so the kiosk can show the server state', () => {
    expect(decide(problem(409, 'CHECKIN_CLOSED', { checkinId: 4 }), Resource)).toMatchObject({
      current: { checkinId: 4 },
    });
  });
});

/** A scripted server: answers creates with `answers` in turn (then 201), records every request. */
function stubServer(answers: Array<{ status: number; code?: string; headers?: Record<string, string> }>) {
  const requests: Array<{ method: string; url: string; key: string | null }> = [];
  let nextId = 1;
  let inFlight = 0;
  let maxInFlight = 0;
  const checkin = (): z.infer<typeof PersonCheckin> => ({
    checkinId: nextId++,
    siteId: 1,
    status: 'IN',
    person: { firstName: 'Stub', lastName: 'Person', email: null, phone: null, company: null },
    hostName: null,
    hostId: null,
    purpose: null,
    customFields: {},
    labelIds: [],
    entry: { source: 'KIOSK', at: '2026-11-21T09:00:00.000Z' },
    exit: null,
    denyReason: null,
    invitationId: null,
    pendingReason: null,
    badgeCode: null,
    language: null,
    breaks: [],
    decidedBy: null,
    decidedAt: null,
    createdAt: '2026-11-21T09:00:00.000Z',
    updatedAt: '2026-11-21T09:00:00.000Z',
  });
  const json = (status: number, body: unknown, headers: Record<string, string> = {}) =>
    new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json', ...headers } });
  const fetch = async (url: string, init: RequestInit): Promise<Response> => {
    const method = init.method ?? 'GET';
    requests.push({ method, url, key: new Headers(init.headers).get('Idempotency-Key') });
    inFlight += 1;
    maxInFlight = Math.max(maxInFlight, inFlight);
    await new Promise((resolve) => setTimeout(resolve, 2));
    inFlight -= 1;
    if (method === 'GET') return json(200, { data: [], nextCursor: null });
    const answer = answers.shift();
    if (!answer || answer.status < 300) return json(201, checkin());
    const code = answer.code ?? 'X';
    return json(
      answer.status,
      { type: 'urn:x', title: code, status: answer.status, detail: code, code, instance: '/', requestId: 'r' },
      answer.headers,
    );
  };
  return { fetch, requests, maxInFlight: () => maxInFlight };
}

function stubKiosk(
  fetch: ReturnType<typeof stubServer>['fetch'],
  options: { databaseName?: string; locks?: LockProvider } = {},
) {
  const platform = testPlatform({ network: testNetwork({ fetch }), locks: options.locks });
  return openKiosk({
    platform,
    databaseName: options.databaseName ?? `stub-${randomUUID()}`,
    serverUrl: 'http://stub.invalid',
    token: 't',
    siteId: 1,
    mode: 'visitor',
  });
}

describe('the engine against a scripted server', () => {
  it('429 with Retry-After: 7 waits 7 seconds (the default policy), with the same key', async () => {
    const stub = stubServer([{ status: 429, code: 'RATE_LIMITED', headers: { 'Retry-After': '7' } }]);
    const kiosk = stubKiosk(stub.fetch);
    await kiosk.checkIn({ person: { firstName: 'Rita', lastName: 'Limited' } });
    kiosk.start();
    await kiosk.engine.idle();
    const [action] = await kiosk.db.outbox.toArray();
    expect(action).toMatchObject({ state: 'QUEUED', attempts: 1, lastError: { status: 429, code: 'RATE_LIMITED' } });
    const wait = (action?.nextAttemptAt ?? 0) - Date.now();
    expect(wait).toBeGreaterThan(6 * SECOND);
    expect(wait).toBeLessThanOrEqual(7 * SECOND);
    await kiosk.close();
  });

  it('Retry keeps the key after an unstored refusal (404) and takes a new one after a stored one (422)', async () => {
    const stub = stubServer([
      { status: 404, code: 'NOT_FOUND' },
      { status: 422, code: 'VALIDATION_FAILED' },
    ]);
    const kiosk = stubKiosk(stub.fetch);
    await kiosk.checkIn({ person: { firstName: 'Kim', lastName: 'Key' } });
    kiosk.start();
    const refusedAs = async () => {
      await kiosk.engine.idle();
      const [action] = await kiosk.db.outbox.toArray();
      expect(action?.state).toBe('ATTENTION');
      return action;
    };
    const first = await refusedAs();
    await kiosk.retry(first?.seq ?? -1);
    const second = await refusedAs();
    expect(second?.lastError?.code).toBe('VALIDATION_FAILED');
    await kiosk.retry(second?.seq ?? -1);
    await kiosk.engine.idle();
    expect(await kiosk.db.outbox.count()).toBe(0);
    const keys = stub.requests.filter((request) => request.method === 'POST').map((request) => request.key);
    expect(keys).toHaveLength(3);
    expect(keys[1]).toBe(keys[0]);
    expect(keys[2]).not.toBe(keys[1]);
    await kiosk.close();
  });

  it('two windows on one database share the lock: every action is sent once, never by both', async () => {
    const stub = stubServer([]);
    const locks = createMemoryLock();
    const databaseName = `stub-${randomUUID()}`;
    const left = stubKiosk(stub.fetch, { databaseName, locks });
    const right = stubKiosk(stub.fetch, { databaseName, locks });
    for (let index = 0; index < 20; index += 1) {
      await (index % 2 ? left : right).checkIn({ person: { firstName: `W${index}`, lastName: 'Window' } });
    }
    left.start();
    right.start();
    await Promise.all([left.engine.syncNow(), right.engine.syncNow()]);
    await Promise.all([left.engine.idle(), right.engine.idle()]);
    const keys = stub.requests.filter((request) => request.method === 'POST').map((request) => request.key);
    expect(keys).toHaveLength(20);
    expect(new Set(keys).size).toBe(20);
    expect(await left.db.outbox.count()).toBe(0);
    await Promise.all([left.close(), right.close()]);
  });
});
