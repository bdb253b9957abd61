import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { Problem } from '../../shared/src/schemas/common';
import type { PersonCheckin } from '../../shared/src/schemas/personCheckins';
import { LockNamespace, lockHashSql } from '../../server/src/db/advisoryLocks';
import { inTransaction, queryOne } from '../../server/src/db/query';
import { purgeExpired } from '../../server/src/idempotency/store';
import { buildSite, buildToken, buildWorld, visitor } from '../support/factories';
import { apiClient } from '../support/http';
import { serverAndWorld } from '../support/serverAndWorld';
import { type Sql, sql } from '../../server/src/db/sql';

const harness = serverAndWorld();

const people = () => `/v1/sites/${harness.world.siteId}/checkins/people`;
const db = () => harness.server.database;

async function count(statement: Sql): Promise<number> {
  return (await queryOne<{ count: number }>(db(), statement))?.count ?? -1;
}

const checkinsNamed = (firstName: string) =>
  count(sql`SELECT count(*)::int AS count FROM person_checkins WHERE first_name = ${firstName}`);
const eventsFor = (checkinId: number) =>
  count(
    sql`SELECT count(*)::int AS count FROM outbox_events WHERE payload->'data'->'checkin'->>'checkinId' = ${String(checkinId)}`,
  );

describe('a completed key replays its stored response with no second effect', () => {
  it('create: same status and bytes (original requestId too), Idempotent-Replayed, one check-in, one event', async () => {
    const key = randomUUID();
    const name = `Replay-${key}`;
    const first = await harness.world.api.post<PersonCheckin>(people(), visitor(name), { idempotencyKey: key });
    const second = await harness.world.api.post<PersonCheckin>(people(), visitor(name), { idempotencyKey: key });
    expect(first.status).toBe(201);
    expect(first.headers.get('idempotent-replayed')).toBeNull();
    expect(second.status).toBe(201);
    expect(second.headers.get('idempotent-replayed')).toBe('true');
    expect(second.text).toBe(first.text);
    expect(await checkinsNamed(name)).toBe(1);
    expect(await eventsFor(first.body.checkinId)).toBe(1);
  });

  it('break start and checkout replay too; a replayed checkout emits no second event', async () => {
    const created = await harness.world.api.post<PersonCheckin>(people(), visitor());
    const item = `${people()}/${created.body.checkinId}`;
    const startKey = randomUUID();
    const started = await harness.world.api.post<PersonCheckin>(`${item}/breaks/start`, undefined, {
      idempotencyKey: startKey,
    });
    const startedAgain = await harness.world.api.post<PersonCheckin>(`${item}/breaks/start`, undefined, {
      idempotencyKey: startKey,
    });
    expect(startedAgain.status).toBe(200);
    expect(startedAgain.text).toBe(started.text);

    const outKey = randomUUID();
    const out = await harness.world.api.patch<PersonCheckin>(
      item,
      { exit: { source: 'MANUAL' } },
      { idempotencyKey: outKey },
    );
    const outAgain = await harness.world.api.patch<PersonCheckin>(
      item,
      { exit: { source: 'MANUAL' } },
      { idempotencyKey: outKey },
    );
    expect(out.status).toBe(200);
    expect(outAgain.status).toBe(200);
    expect(outAgain.headers.get('idempotent-replayed')).toBe('true');
    expect(outAgain.body.status).toBe('OUT');
    // created (ENTERED) + break started + exited: the replays added nothing.
    expect(await eventsFor(created.body.checkinId)).toBe(3);
  });

  it('a 409 the handler returned is stored and replayed even after the state changed', async () => {
    const created = await harness.world.api.post<PersonCheckin>(people(), visitor());
    const item = `${people()}/${created.body.checkinId}`;
    const key = randomUUID();
    const refused = await harness.world.api.post<Problem>(`${item}/breaks/end`, undefined, { idempotencyKey: key });
    expect(refused.status).toBe(409);
    await harness.world.api.post(`${item}/breaks/start`);
    const replay = await harness.world.api.post<Problem>(`${item}/breaks/end`, undefined, { idempotencyKey: key });
    expect(replay.status).toBe(409);
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    expect(replay.headers.get('content-type')).toMatch(/problem\+json/);
    expect(replay.text).toBe(refused.text);
    const current = await harness.world.api.get<PersonCheckin>(item);
    expect(current.body.status).toBe('ON_BREAK');
  });
});

describe('a replay carries the response headers the handler set', () => {
  it('a replayed configuration PUT has the same ETag', async () => {
    const path = `/v1/sites/${harness.world.otherSiteId}/checkins/people/config`;
    const current = await harness.world.api.get<{ fields: unknown[] }>(path);
    const key = randomUUID();
    const body = { requiresApproval: false, fields: current.body.fields };
    const first = await harness.world.api.put(path, body, { idempotencyKey: key });
    const again = await harness.world.api.put(path, body, { idempotencyKey: key });
    expect(first.headers.get('etag')).toMatch(/^"cfg-/);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.headers.get('etag')).toBe(first.headers.get('etag'));
  });
});

describe('a key used for a different request is refused', () => {
  it('different body → 422 IDEMPOTENCY_KEY_REUSED', async () => {
    const key = randomUUID();
    await harness.world.api.post(people(), visitor('First', 'Body'), { idempotencyKey: key });
    const reused = await harness.world.api.post<Problem>(people(), visitor('Other', 'Body'), { idempotencyKey: key });
    expect(reused.status).toBe(422);
    expect(reused.body.code).toBe('IDEMPOTENCY_KEY_REUSED');
    expect(await checkinsNamed('Other')).toBe(0);
  });

  it('same body on a different path → 422 IDEMPOTENCY_KEY_REUSED', async () => {
    const key = randomUUID();
    await harness.world.api.post(people(), visitor('Path', 'One'), { idempotencyKey: key });
    const reused = await harness.world.api.post<Problem>(
      `/v1/sites/${harness.world.otherSiteId}/checkins/people`,
      visitor('Path', 'One'),
      {
        idempotencyKey: key,
      },
    );
    expect(reused.status).toBe(422);
    expect(reused.body.code).toBe('IDEMPOTENCY_KEY_REUSED');
  });

  it('key order in the JSON body does not make a different request', async () => {
    const key = randomUUID();
    const body = { hostName: 'Grace', person: { lastName: 'Order', firstName: 'Key' } };
    const first = await harness.world.api.post(people(), body, { idempotencyKey: key });
    const reordered = await harness.world.api.post(
      people(),
      { person: { firstName: 'Key', lastName: 'Order' }, hostName: 'Grace' },
      { idempotencyKey: key },
    );
    expect(first.status).toBe(201);
    expect(reordered.status).toBe(201);
    expect(reordered.headers.get('idempotent-replayed')).toBe('true');
  });
});

describe('what is not stored runs afresh on retry', () => {
  it('a 404 (site not visible) is not stored; the same key then works on a visible site', async () => {
    const key = randomUUID();
    const missing = await harness.world.api.post<Problem>('/v1/sites/999999/checkins/people', visitor(), {
      idempotencyKey: key,
    });
    expect(missing.status).toBe(404);
    const created = await harness.world.api.post(people(), visitor('After', 'NotFound'), { idempotencyKey: key });
    expect(created.status).toBe(201);
  });

  it('a body that fails schema validation (422 before the handler) is not stored', async () => {
    const key = randomUUID();
    const invalid = await harness.world.api.post<Problem>(
      people(),
      { person: { firstName: 'X' }, entry: { source: 'API' } },
      { idempotencyKey: key },
    );
    expect(invalid.status).toBe(422);
    expect(invalid.body.code).toBe('VALIDATION_FAILED');
    const fixed = await harness.world.api.post(people(), visitor('Fixed', 'Body'), { idempotencyKey: key });
    expect(fixed.status).toBe(201);
  });

  it('a key expired past IDEMPOTENCY_TTL_HOURS runs again, and the purge removes old keys', async () => {
    const key = randomUUID();
    await harness.world.api.post(people(), visitor('Expired', 'Key'), { idempotencyKey: key });
    // Minutes past the retention it still counts: an occurredAt may lie 5 minutes ahead of the server, so a
    // create resent then could still be inside its 7-day window.
    await queryOne(
      db(),
      sql`UPDATE idempotency_keys SET created_at = now() - interval '168 hours 3 minutes' WHERE key = ${key}`,
    );
    const late = await harness.world.api.post(people(), visitor('Expired', 'Key'), { idempotencyKey: key });
    expect(late.headers.get('idempotent-replayed')).toBe('true');
    expect(await checkinsNamed('Expired')).toBe(1);
    await queryOne(db(), sql`UPDATE idempotency_keys SET created_at = now() - interval '169 hours' WHERE key = ${key}`);
    const again = await harness.world.api.post(people(), visitor('Expired', 'Key'), { idempotencyKey: key });
    expect(again.status).toBe(201);
    expect(again.headers.get('idempotent-replayed')).toBeNull();
    expect(await checkinsNamed('Expired')).toBe(2);

    await queryOne(db(), sql`UPDATE idempotency_keys SET created_at = now() - interval '200 hours' WHERE key = ${key}`);
    const purged = await purgeExpired(db(), new Date(Date.now() - 168 * 3_600_000));
    expect(purged).toBeGreaterThanOrEqual(1);
    expect(await count(sql`SELECT count(*)::int AS count FROM idempotency_keys WHERE key = ${key}`)).toBe(0);
  });
});

describe('keys are scoped to the account, and access is checked before any replay', () => {
  it('the same key in another account is a different key', async () => {
    const other = await buildWorld(harness.server);
    const key = randomUUID();
    const mine = await harness.world.api.post<PersonCheckin>(people(), visitor('Scope', 'Mine'), {
      idempotencyKey: key,
    });
    const theirs = await other.api.post<PersonCheckin>(
      `/v1/sites/${other.siteId}/checkins/people`,
      visitor('Scope', 'Mine'),
      {
        idempotencyKey: key,
      },
    );
    expect(theirs.status).toBe(201);
    expect(theirs.headers.get('idempotent-replayed')).toBeNull();
    expect(theirs.body.checkinId).not.toBe(mine.body.checkinId);
  });

  it('a token of the same account that cannot view the site gets 404, not the stored response', async () => {
    const key = randomUUID();
    await harness.world.api.post(people(), visitor('Access', 'First'), { idempotencyKey: key });
    const elsewhere = await buildSite(harness.server, harness.world.accountId);
    const narrow = await buildToken(harness.server, {
      accountId: harness.world.accountId,
      siteIds: [elsewhere.siteId],
    });
    const replay = await apiClient(harness.server.baseUrl, narrow.token).post<Problem>(
      people(),
      visitor('Access', 'First'),
      {
        idempotencyKey: key,
      },
    );
    expect(replay.status).toBe(404);
    const unauthenticated = await apiClient(harness.server.baseUrl).post<Problem>(
      people(),
      visitor('Access', 'First'),
      { idempotencyKey: key },
    );
    expect(unauthenticated.status).toBe(401);
  });
});

describe('concurrent requests with one key', () => {
  it('50 identical creates at once produce exactly one check-in; each answer is that 201 or 409 IN_USE', async () => {
    const key = randomUUID();
    const name = `Burst-${key}`;
    const responses = await Promise.all(
      Array.from({ length: 50 }, () =>
        harness.world.api.post<{ checkinId?: number; code?: string }>(people(), visitor(name), { idempotencyKey: key }),
      ),
    );
    const created = responses.filter((response) => response.status === 201);
    const busy = responses.filter((response) => response.status === 409);
    expect(created.length + busy.length).toBe(50);
    expect(created.length).toBeGreaterThanOrEqual(1);
    expect(new Set(created.map((response) => response.body.checkinId)).size).toBe(1);
    for (const response of busy) {
      expect(response.body.code).toBe('IDEMPOTENCY_KEY_IN_USE');
      expect(response.headers.get('retry-after')).toBe('1');
    }
    expect(await checkinsNamed(name)).toBe(1);
    const checkinId = created[0]?.body.checkinId ?? 0;
    expect(await eventsFor(checkinId)).toBe(1);
  });

  it('while another request holds the key, 409 IDEMPOTENCY_KEY_IN_USE with Retry-After: 1 and nothing kept; then the retry goes', async () => {
    const key = randomUUID();
    const name = `Held-${key}`;
    // What a request still saving its outcome holds: the key's transaction lock, until it commits.
    await inTransaction(harness.server.database, async (transaction) => {
      await queryOne(
        transaction,
        sql`SELECT pg_advisory_xact_lock(${LockNamespace.IDEMPOTENCY_KEY}::integer, ${lockHashSql(sql`${harness.world.accountId}`, sql`${key}`)}) AS locked`,
      );
      const busy = await harness.world.api.post<Problem>(people(), visitor(name), { idempotencyKey: key });
      expect(busy.status, busy.text).toBe(409);
      expect(busy.body.code).toBe('IDEMPOTENCY_KEY_IN_USE');
      expect(busy.headers.get('retry-after')).toBe('1');
      expect(await checkinsNamed(name)).toBe(0);
    });
    const retried = await harness.world.api.post<PersonCheckin>(people(), visitor(name), { idempotencyKey: key });
    expect(retried.status).toBe(201);
    expect(retried.headers.get('idempotent-replayed')).toBeNull();
    expect(await checkinsNamed(name)).toBe(1);
  });
});
