import { describe, expect, it } from 'vitest';
import type { Scope } from '../../shared/src/schemas/admin';
import type { PersonCheckin } from '../../shared/src/schemas/personCheckins';
import { observeStatements, queryOne } from '../../server/src/db/query';
import { sql } from '../../server/src/db/sql';
import { buildToken, visitor } from '../support/factories';
import { type ApiClient, apiClient } from '../support/http';
import { serverAndWorld } from '../support/serverAndWorld';
import { TEST_ADMIN_TOKEN } from '../support/testServer';

const harness = serverAndWorld();
const people = (siteId: number) => `/v1/sites/${siteId}/checkins/people`;
const admin = () => apiClient(harness.server.baseUrl, TEST_ADMIN_TOKEN);
/** The process's own work, not a request's: the rate limiter's sync, lastUsedAt, a new block of ids. */
const BACKGROUND = /rate_limit_windows|SET last_used_at|generate_series/;

/** A token of its own (so no other test's requests make it remembered or not), and a client with it. */
async function tokenFor(siteIds: number[], scopes: Scope[] = ['checkins:read', 'checkins:write']) {
  const token = await buildToken(harness.server, { accountId: harness.world.accountId, siteIds, scopes });
  return { ...token, api: apiClient(harness.server.baseUrl, token.token) };
}

/** Two creates: the first writes the token's lastUsedAt, the second finds it fresh and remembers the token. */
async function remembered(api: ApiClient, siteId: number): Promise<void> {
  for (const name of ['Warm', 'Again']) expect((await api.post(people(siteId), visitor(name, 'Up'))).status).toBe(201);
}

/** The statements `run` sends for its requests, the process's own work left out. */
async function statementsOf(run: () => Promise<void>): Promise<string[]> {
  const sent: string[] = [];
  const stop = observeStatements(harness.server.database, (statement) => {
    if (!BACKGROUND.test(statement.text)) sent.push(statement.text);
  });
  try {
    await run();
  } finally {
    stop();
  }
  return sent;
}

async function countNamed(siteId: number, firstName: string): Promise<number> {
  const row = await queryOne<{ count: number }>(
    harness.server.database,
    sql`SELECT count(*)::int AS count FROM person_checkins WHERE site_id = ${siteId} AND first_name = ${firstName}`,
  );
  return row?.count ?? -1;
}

describe('a write by a token that wrote a moment ago', () => {
  it('is one statement to PostgreSQL: the caller is checked in the write itself', async () => {
    const { siteId } = harness.world;
    const { api } = await tokenFor([siteId]);
    await remembered(api, siteId);
    const sent = await statementsOf(async () => {
      for (let i = 0; i < 10; i += 1) expect((await api.post(people(siteId), visitor('One', 'Trip'))).status).toBe(201);
    });
    expect(sent).toHaveLength(10);
    expect(sent.every((text) => /FROM api_tokens/.test(text) && /INSERT INTO person_checkins/.test(text))).toBe(true);
  });

  it('is refused (401) once the token is revoked, and writes nothing', async () => {
    const { siteId } = harness.world;
    const token = await tokenFor([siteId]);
    await remembered(token.api, siteId);
    expect((await admin().delete(`/v1/admin/tokens/${token.tokenId}`)).status).toBe(204);
    let answer: { status: number; body: { code: string } } | undefined;
    const sent = await statementsOf(async () => {
      answer = await token.api.post<{ code: string }>(people(siteId), visitor('Revoked', 'Remembered'));
    });
    expect(answer?.status).toBe(401);
    expect(answer?.body.code).toBe('UNAUTHENTICATED');
    // The write that found the caller changed, then the full authentication that refused it.
    expect(sent).toHaveLength(2);
    expect(sent[0]).toMatch(/INSERT INTO person_checkins/);
    expect(await countNamed(siteId, 'Revoked')).toBe(0);
  });

  it('is a 404 once the site is taken from the token, and a 403 once the scope is', async () => {
    const { siteId, otherSiteId } = harness.world;
    const token = await tokenFor([siteId, otherSiteId]);
    await remembered(token.api, siteId);
    expect((await admin().patch(`/v1/admin/tokens/${token.tokenId}`, { siteIds: [otherSiteId] })).status).toBe(200);
    expect((await token.api.post(people(siteId), visitor('Removed', 'Remembered'))).status).toBe(404);
    expect(await countNamed(siteId, 'Removed')).toBe(0);

    await remembered(token.api, otherSiteId);
    expect((await admin().patch(`/v1/admin/tokens/${token.tokenId}`, { scopes: ['checkins:read'] })).status).toBe(200);
    expect((await token.api.post(people(otherSiteId), visitor('Unscoped', 'Remembered'))).status).toBe(403);
    expect(await countNamed(otherSiteId, 'Unscoped')).toBe(0);
  });

  it('is refused (409 SITE_ARCHIVED) once the site is archived', async () => {
    const { siteId } = harness.world;
    const site = (
      await admin().post<{ siteId: number }>(`/v1/admin/accounts/${harness.world.accountId}/sites`, {
        name: 'Archived soon',
      })
    ).body;
    const token = await tokenFor([site.siteId]);
    await remembered(token.api, site.siteId);
    expect((await harness.world.api.patch(`/v1/sites/${site.siteId}`, { archived: true })).status).toBe(200);
    const answer = await token.api.post<{ code: string }>(people(site.siteId), visitor('Late', 'Remembered'));
    expect(answer.status).toBe(409);
    expect(answer.body.code).toBe('SITE_ARCHIVED');
    expect(await countNamed(site.siteId, 'Late')).toBe(0);
    expect(siteId).not.toBe(site.siteId);
  });

  it('stops a watchlisted visitor and refuses an unknown label, as the full steps do', async () => {
    const { siteId } = harness.world;
    const token = await tokenFor([siteId]);
    await remembered(token.api, siteId);
    const entry = await harness.world.api.post('/v1/watchlist/people', {
      firstName: 'Listed',
      lastName: 'Remembered',
      reason: 'Banned',
    });
    expect(entry.status).toBe(201);
    const stopped = await token.api.post<PersonCheckin>(people(siteId), visitor('Listed', 'Remembered'));
    expect(stopped.status).toBe(201);
    expect(stopped.body.status).toBe('STOP');
    const alert = await queryOne<{ stop_reason: string; stop_source: string }>(
      harness.server.database,
      sql`SELECT stop_reason, stop_source FROM person_checkins WHERE id = ${stopped.body.checkinId}`,
    );
    expect(alert).toEqual({ stop_reason: 'Banned', stop_source: 'watchlist' });
    const events = await queryOne<{ types: string[] }>(
      harness.server.database,
      sql`SELECT array_agg(type) AS types FROM outbox_events WHERE payload->'data'->'checkin'->>'checkinId' = ${String(stopped.body.checkinId)}`,
    );
    expect(events?.types).toEqual(['PERSON_CHECKIN_STOPPED']);

    const unknown = await token.api.post<{ code: string }>(
      people(siteId),
      visitor('Unknown', 'Label', { labelIds: [987_654_321] }),
    );
    expect(unknown.status).toBe(422);
    expect(unknown.body.code).toBe('VALIDATION_FAILED');
  });

  it('replays a key it used before, and answers a key in use by another body with 422', async () => {
    const { siteId } = harness.world;
    const token = await tokenFor([siteId]);
    await remembered(token.api, siteId);
    const first = await token.api.post<PersonCheckin>(people(siteId), visitor('Keyed', 'Remembered'), {
      idempotencyKey: 'remembered-1',
    });
    const again = await token.api.post<PersonCheckin>(people(siteId), visitor('Keyed', 'Remembered'), {
      idempotencyKey: 'remembered-1',
    });
    expect(first.status).toBe(201);
    expect([again.status, again.text, again.headers.get('Idempotent-Replayed')]).toEqual([201, first.text, 'true']);
    const other = await token.api.post(people(siteId), visitor('Other', 'Body'), { idempotencyKey: 'remembered-1' });
    expect(other.status).toBe(422);
    expect(await countNamed(siteId, 'Keyed')).toBe(1);
  });

  it('hands out ids in the order of the creates', async () => {
    const { siteId } = harness.world;
    const token = await tokenFor([siteId]);
    const ids: number[] = [];
    for (let i = 0; i < 40; i += 1) {
      const created = await token.api.post<PersonCheckin>(people(siteId), visitor('Ordered', `N${i}`));
      ids.push(created.body.checkinId);
    }
    expect(ids).toEqual([...ids].sort((a, b) => a - b));
    expect(new Set(ids).size).toBe(ids.length);
  });
});
