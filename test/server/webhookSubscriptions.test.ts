import dns from 'node:dns';
import { describe, expect, it, vi } from 'vitest';
import type { Problem } from '../../shared/src/schemas/common';
import type { CreatedWebhookSubscription, WebhookSubscription } from '../../shared/src/schemas/webhooks';
import { buildSite, buildToken, buildWorld, type World } from '../support/factories';
import { queryOne, queryRows } from '../../server/src/db/query';
import { requestFingerprint } from '../../server/src/idempotency/key';
import { claimDueDeliveries } from '../../server/src/webhooks/deliveryQueue';
import { purgeDeletedSubscriptionLogs } from '../../server/src/webhooks/logRetention';
import { apiClient } from '../support/http';
import { serverAndWorld, serverForFile } from '../support/serverAndWorld';
import { subscribe } from '../support/webhooks';
import { holdTransaction } from '../support/heldTransaction';
import { sql } from '../../server/src/db/sql';

const harness = serverAndWorld({ env: { WEBHOOK_ALLOW_PRIVATE_URLS: 'true' } });
/** A server with the default (private URLs refused), for what it refuses. */
const strict = serverForFile();

const collection = '/v1/webhooks/subscriptions';
const hook = 'http://127.0.0.1:9/hook';
type Page<T> = { data: T[]; nextCursor: string | null };

describe('subscriptions: create, list, read, update, delete', () => {
  it('creates with a whsec_ secret shown once, then reads, lists, patches and deletes', async () => {
    const created = await subscribe(harness.world.api, {
      url: hook,
      events: ['PERSON_CHECKIN_ENTERED', 'PERSON_CHECKIN_ENTERED'],
      description: 'door',
    });
    expect(created).toMatchObject({
      url: hook,
      events: ['PERSON_CHECKIN_ENTERED'],
      siteIds: null,
      description: 'door',
      enabled: true,
      disabledReason: null,
    });
    expect(created.secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    const item = `${collection}/${created.subscriptionId}`;

    const read = await harness.world.api.get<WebhookSubscription>(item);
    expect(read.status).toBe(200);
    expect(read.body).not.toHaveProperty('secret');
    const { secret: _secret, ...shown } = created;
    expect(read.body).toEqual(shown);

    const listed = await harness.world.api.get<Page<WebhookSubscription>>(collection);
    expect(listed.body.data.map((entry) => entry.subscriptionId)).toContain(created.subscriptionId);
    expect(listed.body.data.every((entry) => !('secret' in entry))).toBe(true);

    const patched = await harness.world.api.patch<WebhookSubscription>(item, {
      events: ['PERSON_BREAK_STARTED', 'VEHICLE_CHECKIN_EXITED'],
      siteIds: [harness.world.siteId],
      description: null,
      enabled: false,
    });
    expect(patched.status).toBe(200);
    expect(patched.body).toMatchObject({
      events: ['PERSON_BREAK_STARTED', 'VEHICLE_CHECKIN_EXITED'],
      siteIds: [harness.world.siteId],
      description: null,
      enabled: false,
    });
    const cleared = await harness.world.api.patch<WebhookSubscription>(item, { siteIds: null, enabled: true });
    expect(cleared.body).toMatchObject({ siteIds: null, enabled: true, disabledReason: null, url: hook });

    expect((await harness.world.api.delete(item)).status).toBe(204);
    expect((await harness.world.api.get(item)).status).toBe(404);
    expect((await harness.world.api.delete(item)).status).toBe(404);
    expect((await harness.world.api.get(`${item}/deliveries`)).status).toBe(404);
  });

  it('a delete that meets a fan-out holding the subscription waits for it; what that wrote goes with the log', async () => {
    const created = await subscribe(harness.world.api, { url: hook, events: ['PERSON_CHECKIN_ENTERED'] });
    const id = created.subscriptionId;
    const checkin = await harness.world.api.post<{ checkinId: number }>(
      `/v1/sites/${harness.world.siteId}/checkins/people`,
      { person: { firstName: 'Race', lastName: 'Delete' } },
    );
    expect(checkin.status).toBe(201);
    // Stand in for a fan-out: share-lock the subscription as the fan-out does, and write a delivery of it.
    const fanOut = await holdTransaction(harness.server.database);
    try {
      const db = fanOut.db;
      await queryOne(
        db,
        sql`SELECT id FROM webhook_subscriptions WHERE account_id = ${harness.world.accountId} AND id = ${id} FOR KEY SHARE`,
      );
      const deleting = harness.world.api.delete(`${collection}/${id}`);
      await new Promise((resolve) => setTimeout(resolve, 300));
      await queryOne(
        db,
        sql`INSERT INTO webhook_deliveries (account_id, subscription_id, outbox_id, event_id, event_type, next_attempt_at, created_at, updated_at)
         SELECT account_id, ${id}, id, event_id, type, now(), now(), now() FROM outbox_events
         WHERE account_id = ${harness.world.accountId} AND payload->'data'->'checkin'->>'checkinId' = ${String(checkin.body.checkinId)}
         ON CONFLICT (account_id, subscription_id, outbox_id) DO NOTHING`,
      );
      await fanOut.commit();
      expect((await deleting).status).toBe(204);
    } catch (error) {
      await fanOut.rollback().catch(() => undefined);
      throw error;
    }
    const left = async () =>
      (
        await queryOne<{ count: number }>(
          harness.server.database,
          sql`SELECT count(*)::int AS count FROM webhook_deliveries WHERE account_id = ${harness.world.accountId} AND subscription_id = ${id}`,
        )
      )?.count;
    // The log waits behind the subscription's tombstone for the retention job, unreachable: nothing claims it.
    expect(await left()).toBe(1);
    expect((await harness.world.api.get(`${collection}/${id}/deliveries`)).status).toBe(404);
    expect(
      (await claimDueDeliveries(harness.server.database, 100, 30_000)).filter(
        (claimed) => claimed.account_id === harness.world.accountId,
      ),
    ).toEqual([]);
    expect(await purgeDeletedSubscriptionLogs(harness.server.database, { batch: 1 })).toBe(1);
    expect(await left()).toBe(0);
    const tombstone = await queryOne(
      harness.server.database,
      sql`SELECT 1 FROM webhook_subscription_tombstones WHERE account_id = ${harness.world.accountId} AND subscription_id = ${id}`,
    );
    expect(tombstone).toBeUndefined();
  });

  it('pages the list by cursor, oldest first', async () => {
    const fresh = await buildWorld(harness.server);
    for (let i = 0; i < 3; i += 1) await subscribe(fresh.api, { url: hook, events: ['PERSON_CHECKIN_EXITED'] });
    const first = await fresh.api.get<Page<WebhookSubscription>>(`${collection}?limit=2`);
    expect(first.body.data).toHaveLength(2);
    const second = await fresh.api.get<Page<WebhookSubscription>>(
      `${collection}?limit=2&cursor=${first.body.nextCursor}`,
    );
    expect(second.body.data).toHaveLength(1);
    expect(second.body.nextCursor).toBeNull();
    const ids = [...first.body.data, ...second.body.data].map((entry) => entry.subscriptionId);
    expect(ids).toEqual([...ids].sort((a, b) => a - b));
  });

  it('replays a keyed create with the same secret and creates one subscription', async () => {
    const fresh = await buildWorld(harness.server);
    const body = { url: hook, events: ['PERSON_CHECKIN_ENTERED'] };
    const first = await fresh.api.post<CreatedWebhookSubscription>(collection, body, { idempotencyKey: 'sub-1' });
    const again = await fresh.api.post<CreatedWebhookSubscription>(collection, body, { idempotencyKey: 'sub-1' });
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.body.secret).toBe(first.body.secret);
    const listed = await fresh.api.get<Page<WebhookSubscription>>(collection);
    expect(listed.body.data).toHaveLength(1);
  });
});

describe('access', () => {
  it('needs the webhooks:manage scope (403), which a default token lacks', async () => {
    const token = await buildToken(harness.server, { accountId: harness.world.accountId });
    const api = apiClient(harness.server.baseUrl, token.token);
    const refused = await api.get<Problem>(collection);
    expect(refused.status).toBe(403);
    expect(refused.body.code).toBe('INSUFFICIENT_SCOPE');
    expect((await api.post(collection, { url: hook, events: ['PERSON_CHECKIN_ENTERED'] })).status).toBe(403);
  });

  it("does not replay one token's stored create (and its secret) to another token of the account", async () => {
    const limited = apiClient(
      harness.server.baseUrl,
      (
        await buildToken(harness.server, {
          accountId: harness.world.accountId,
          siteIds: [harness.world.siteId],
          scopes: ['webhooks:manage'],
        })
      ).token,
    );
    const body = { url: hook, events: ['PERSON_CHECKIN_ENTERED'] };
    const created = await harness.world.api.post<CreatedWebhookSubscription>(collection, body, {
      idempotencyKey: 'per-token-1',
    });
    expect(created.status).toBe(201);
    const other = await limited.post<Problem>(collection, body, { idempotencyKey: 'per-token-1' });
    expect(other.status).toBe(422);
    expect(other.body.code).toBe('IDEMPOTENCY_KEY_REUSED');
    expect(other.text).not.toContain(created.body.secret);
    const again = await harness.world.api.post<CreatedWebhookSubscription>(collection, body, {
      idempotencyKey: 'per-token-1',
    });
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.body.secret).toBe(created.body.secret);

    // A record stored by an earlier version (its fingerprint without the token) still replays until it expires.
    const legacy = { url: 'http://127.0.0.1:9/legacy', events: ['PERSON_CHECKIN_ENTERED'] };
    await queryOne(
      harness.server.database,
      sql`INSERT INTO idempotency_keys (account_id, key, fingerprint, status_code, body, headers, created_at)
       VALUES (${harness.world.accountId}, 'legacy-key-1', ${requestFingerprint('POST', collection, legacy)}, 201, '{"stored":"before the upgrade"}', '{}', now())`,
    );
    const replayed = await harness.world.api.post(collection, legacy, { idempotencyKey: 'legacy-key-1' });
    expect(replayed.status).toBe(201);
    expect(replayed.headers.get('idempotent-replayed')).toBe('true');
    expect(replayed.text).toBe('{"stored":"before the upgrade"}');
  });

  it('refuses a subscription from a token with no site (it would get no event, and show to every site-limited token)', async () => {
    const none = apiClient(
      harness.server.baseUrl,
      (
        await buildToken(harness.server, {
          accountId: harness.world.accountId,
          siteIds: [],
          scopes: ['webhooks:manage'],
        })
      ).token,
    );
    const refused = await none.post<Problem>(collection, { url: hook, events: ['PERSON_CHECKIN_ENTERED'] });
    expect(refused.status).toBe(422);
    expect(refused.body.errors?.[0]?.path).toBe('siteIds');
  });

  it('refuses sites the token cannot view with 404, and hides subscriptions of such sites', async () => {
    const token = await buildToken(harness.server, {
      accountId: harness.world.accountId,
      siteIds: [harness.world.siteId],
      scopes: ['webhooks:manage'],
    });
    const api = apiClient(harness.server.baseUrl, token.token);
    const hidden = await subscribe(harness.world.api, {
      url: hook,
      events: ['PERSON_CHECKIN_ENTERED'],
      siteIds: [harness.world.otherSiteId],
    });
    const refused = await api.post<Problem>(collection, {
      url: hook,
      events: ['PERSON_CHECKIN_ENTERED'],
      siteIds: [harness.world.otherSiteId],
    });
    expect(refused.status).toBe(404);
    expect(refused.body.code).toBe('NOT_FOUND');
    const foreign = await buildSite(harness.server, (await buildWorld(harness.server)).accountId);
    expect(
      (
        await harness.world.api.post(collection, {
          url: hook,
          events: ['PERSON_CHECKIN_ENTERED'],
          siteIds: [foreign.siteId],
        })
      ).status,
    ).toBe(404);

    // Without siteIds a site-bound token subscribes to its own sites only.
    const own = await subscribe(api, { url: hook, events: ['PERSON_CHECKIN_ENTERED'] });
    expect(own.siteIds).toEqual([harness.world.siteId]);
    const listed = await api.get<Page<WebhookSubscription>>(collection);
    expect(listed.body.data.map((entry) => entry.subscriptionId)).toEqual([own.subscriptionId]);
    const hiddenId = hidden.subscriptionId;
    expect((await api.get(`${collection}/${hiddenId}`)).status).toBe(404);
    expect((await api.patch(`${collection}/${hiddenId}`, { enabled: false })).status).toBe(404);
    expect((await api.delete(`${collection}/${hiddenId}`)).status).toBe(404);
    expect(
      (await api.patch(`${collection}/${own.subscriptionId}`, { siteIds: [harness.world.otherSiteId] })).status,
    ).toBe(404);
  });

  it('keeps accounts apart', async () => {
    const mine = await subscribe(harness.world.api, { url: hook, events: ['PERSON_CHECKIN_ENTERED'] });
    const other = await buildWorld(harness.server);
    expect((await other.api.get(`${collection}/${mine.subscriptionId}`)).status).toBe(404);
    expect((await other.api.delete(`${collection}/${mine.subscriptionId}`)).status).toBe(404);
  });
});

describe('validation', () => {
  const problemOf = async (api: World['api'], body: unknown) => {
    const response = await api.post<Problem>(collection, body);
    expect(response.status, response.text).toBe(422);
    expect(response.body.code).toBe('VALIDATION_FAILED');
    return response.body;
  };

  it('refuses bad URLs, unknown or missing event kinds and unknown fields', async () => {
    for (const url of ['ftp://example.com/hook', 'not a url', 'https://user:pass@example.com/hook']) {
      expect((await problemOf(harness.world.api, { url, events: ['PERSON_CHECKIN_ENTERED'] })).errors?.[0]?.path).toBe(
        'url',
      );
    }
    for (const url of ['ftp://example.com/hook', 'not a url']) {
      expect((await problemOf(harness.world.api, { url, events: ['PERSON_CHECKIN_ENTERED'] })).errors).toEqual([
        { path: 'url', message: 'An http:// or https:// URL' },
      ]);
    }
    expect(
      (await problemOf(harness.world.api, { url: hook, events: ['PERSON_TELEPORTED'] })).errors?.[0]?.path,
    ).toMatch(/^events/);
    expect((await problemOf(harness.world.api, { url: hook, events: [] })).errors?.[0]?.path).toBe('events');
    expect(
      (await problemOf(harness.world.api, { url: hook, events: ['PERSON_CHECKIN_ENTERED'], secret: 'x' })).errors?.[0]
        ?.path,
    ).toBe('secret');
    expect(
      (
        await problemOf(harness.world.api, {
          url: 'https://gatehouse-test.invalid/hook',
          events: ['PERSON_CHECKIN_ENTERED'],
        })
      ).errors?.[0],
    ).toMatchObject({
      path: 'url',
      message: expect.stringMatching(/does not resolve/),
    });
  });

  it('refuses private, loopback, link-local and other non-public hosts unless WEBHOOK_ALLOW_PRIVATE_URLS=true', async () => {
    const strictWorld = await buildWorld(strict.server);
    for (const url of [
      'http://127.0.0.1:8080/hook',
      'http://localhost/hook',
      'http://10.1.2.3/hook',
      'http://[::1]/hook',
      'http://169.254.169.254/latest/meta-data',
      'http://192.168.0.10/hook',
      'http://[::ffff:127.0.0.1]/hook',
    ]) {
      const body = await problemOf(strictWorld.api, { url, events: ['PERSON_CHECKIN_ENTERED'] });
      expect(body.errors?.[0]).toMatchObject({ path: 'url', message: expect.stringMatching(/not public/) });
    }
    // A name that resolves inside is refused without saying to what (that would map the private network).
    const named = await problemOf(strictWorld.api, {
      url: 'http://localhost/hook',
      events: ['PERSON_CHECKIN_ENTERED'],
    });
    expect(named.errors?.[0]?.message).toBe(
      'The host localhost resolves to an address that is not public (private, loopback, link-local, documentation or another special-purpose range; allowed only when the server runs with WEBHOOK_ALLOW_PRIVATE_URLS=true).',
    );
    const created = await subscribe(strictWorld.api, {
      url: 'https://93.184.215.14/hook',
      events: ['PERSON_CHECKIN_ENTERED'],
    });
    const patched = await strictWorld.api.patch<Problem>(`${collection}/${created.subscriptionId}`, {
      url: 'http://127.0.0.1/hook',
    });
    expect(patched.status).toBe(422);
    // The same URL passes where private URLs are allowed.
    await subscribe(harness.world.api, { url: 'http://localhost:8080/hook', events: ['PERSON_CHECKIN_ENTERED'] });
  });

  it('looks a host up with no transaction open: a slow DNS answer holds no database connection', async () => {
    const real = dns.promises.lookup.bind(dns.promises);
    let looking = 0;
    const lookup = vi.spyOn(dns.promises, 'lookup').mockImplementation((async (host: string) => {
      looking += 1;
      await new Promise((resolve) => setTimeout(resolve, 400));
      return real(host === 'slow.example' ? '127.0.0.1' : host, { all: true, verbatim: true });
    }) as unknown as typeof dns.promises.lookup);
    const inTransaction = async () =>
      (await queryOne<{ count: number }>(
        harness.server.database,
        sql`SELECT count(*)::int AS count FROM pg_stat_activity WHERE datname = current_database() AND state LIKE 'idle in transaction%'`,
      ))!.count;
    try {
      const created = harness.world.api.post<CreatedWebhookSubscription>(collection, {
        url: 'http://slow.example/hook',
        events: ['PERSON_CHECKIN_ENTERED'],
      });
      await vi.waitFor(() => expect(looking).toBe(1), { timeout: 10_000 });
      expect(await inTransaction()).toBe(0);
      const { subscriptionId } = (await created).body;
      expect((await created).status).toBe(201);

      const patched = harness.world.api.patch(`${collection}/${subscriptionId}`, { url: 'http://slow.example/other' });
      await vi.waitFor(() => expect(looking).toBe(2), { timeout: 10_000 });
      expect(await inTransaction()).toBe(0);
      expect((await patched).status).toBe(200);
      // A missing subscription is a 404 before any lookup.
      expect((await harness.world.api.patch(`${collection}/999999`, { url: 'http://slow.example/hook' })).status).toBe(
        404,
      );
      expect(looking).toBe(2);
    } finally {
      lookup.mockRestore();
    }
  });

  it('keeps a refused URL under its Idempotency-Key like any 422, also when a retry races the first request', async () => {
    const strictWorld = await buildWorld(strict.server);
    const body = { url: 'http://127.0.0.1:8080/hook', events: ['PERSON_CHECKIN_ENTERED'] };
    const first = await strictWorld.api.post<Problem>(collection, body, { idempotencyKey: 'refused-url-1' });
    expect(first.status).toBe(422);
    const again = await strictWorld.api.post<Problem>(collection, body, { idempotencyKey: 'refused-url-1' });
    expect(again.status).toBe(422);
    expect(again.headers.get('idempotent-replayed')).toBe('true');

    // The first request's look-up is slow and passes; a retry with the same key fails its look-up at once.
    // Whatever each answers, they answer alike, and the database agrees with them.
    const real = dns.promises.lookup.bind(dns.promises);
    let calls = 0;
    const lookup = vi.spyOn(dns.promises, 'lookup').mockImplementation((async () => {
      calls += 1;
      if (calls === 1) {
        await new Promise((resolve) => setTimeout(resolve, 400));
        return real('127.0.0.1', { all: true, verbatim: true });
      }
      throw Object.assign(new Error('getaddrinfo ENOTFOUND racing.example'), { code: 'ENOTFOUND' });
    }) as unknown as typeof dns.promises.lookup);
    try {
      const racing = { url: 'http://racing.example/hook', events: ['PERSON_CHECKIN_ENTERED'] };
      const slow = harness.world.api.post(collection, racing, { idempotencyKey: 'racing-url-1' });
      await vi.waitFor(() => expect(calls).toBe(1), { timeout: 10_000 });
      const quick = await harness.world.api.post(collection, racing, { idempotencyKey: 'racing-url-1' });
      const answers = [(await slow).status, quick.status];
      expect(answers[0], JSON.stringify(answers)).toBe(answers[1]);
      const saved = await queryOne<{ count: number }>(
        harness.server.database,
        sql`SELECT count(*)::int AS count FROM webhook_subscriptions WHERE account_id = ${harness.world.accountId} AND url = ${racing.url}`,
      );
      expect(saved?.count).toBe(answers[0] === 201 ? 1 : 0);
    } finally {
      lookup.mockRestore();
    }
  });

  it('answers 503 when DNS cannot answer just now, and keeps nothing under the key: the retry may pass', async () => {
    const real = dns.promises.lookup.bind(dns.promises);
    let failing = true;
    const lookup = vi.spyOn(dns.promises, 'lookup').mockImplementation((async () => {
      if (failing) throw Object.assign(new Error('getaddrinfo EAI_AGAIN flaky.example'), { code: 'EAI_AGAIN' });
      return real('127.0.0.1', { all: true, verbatim: true });
    }) as unknown as typeof dns.promises.lookup);
    try {
      const body = { url: 'http://flaky.example/hook', events: ['PERSON_CHECKIN_ENTERED'] };
      const unchecked = await harness.world.api.post<Problem>(collection, body, { idempotencyKey: 'flaky-dns-1' });
      expect(unchecked.status).toBe(503);
      expect(unchecked.headers.get('retry-after')).toBe('5');
      expect(unchecked.body).toMatchObject({
        code: 'UNAVAILABLE',
        detail: 'The host flaky.example could not be looked up just now (DNS); retry shortly.',
      });
      failing = false;
      const retried = await harness.world.api.post(collection, body, { idempotencyKey: 'flaky-dns-1' });
      expect(retried.status).toBe(201);
      expect(retried.headers.get('idempotent-replayed')).toBeNull();
    } finally {
      lookup.mockRestore();
    }
  });

  it('reads a malformed path id or cursor as 404 / 400', async () => {
    expect((await harness.world.api.get(`${collection}/abc`)).status).toBe(404);
    expect((await harness.world.api.get(`${collection}/0/deliveries`)).status).toBe(404);
    const bad = await harness.world.api.get<Problem>(`${collection}?cursor=nope`);
    expect(bad.status).toBe(400);
    expect(bad.body.code).toBe('INVALID_QUERY');
  });
});

describe('the audit log of subscriptions', () => {
  it('records create, update and delete by the token that made them, once each', async () => {
    const world = await buildWorld(harness.server);
    const created = await subscribe(world.api, { url: hook, events: ['PERSON_CHECKIN_ENTERED'] });
    const item = `${collection}/${created.subscriptionId}`;
    expect((await world.api.patch(item, { description: 'door 2' })).status).toBe(200);
    expect((await world.api.delete(item)).status).toBe(204);
    const rows = await queryRows<{ action: string; target_id: number; actor_type: string }>(
      harness.server.database,
      sql`SELECT action, target_id, actor_type FROM audit_events WHERE account_id = ${world.accountId} ORDER BY id`,
    );
    expect(rows.map((row) => [row.action, row.target_id, row.actor_type])).toEqual([
      ['webhook.created', created.subscriptionId, 'token'],
      ['webhook.updated', created.subscriptionId, 'token'],
      ['webhook.deleted', created.subscriptionId, 'token'],
    ]);
  });
});
