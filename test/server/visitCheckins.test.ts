import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { Host } from '../../shared/src/schemas/hosts';
import type { PersonCheckin } from '../../shared/src/schemas/personCheckins';
import type { Site } from '../../shared/src/schemas/sites';
import type { VisitSite } from '../../shared/src/schemas/visit';
import { queryRows } from '../../server/src/db/query';
import { sql } from '../../server/src/db/sql';
import { visitor } from '../support/factories';
import { apiClient } from '../support/http';
import { serverAndWorld } from '../support/serverAndWorld';
import { staffClient } from '../support/staff';
import { newVisitKey, phone, visitCodeOf } from '../support/visitPhone';

// The visitor's own phone (docs/api.md, The visitor's phone): a whole visit by its key, no token.
const harness = serverAndWorld({ worldPerTest: true });

const people = (siteId: number, checkinId: number) => `/v1/sites/${siteId}/checkins/people/${checkinId}`;

describe('a visit from the phone', () => {
  it("opens with the site's form and hosts; an unknown code is a 404 that says to ask reception", async () => {
    const { world, server } = harness;
    const host = await world.api.post<Host>('/v1/hosts', { name: 'Grace Hopper', siteIds: [world.siteId] });
    const code = await visitCodeOf(world.api, world.siteId);
    expect(code).toMatch(/^[23456789ABCDEFGHJKLMNPQRSTUVWXYZ]{10}$/);
    const anyone = apiClient(server.baseUrl);
    const page = await anyone.get<VisitSite>(`/v1/visit/${code}`);
    expect(page.status).toBe(200);
    expect(page.body.archived).toBe(false);
    expect(page.body.fields.map((field) => field.name)).toEqual(['firstName', 'lastName', 'email', 'company']);
    expect(page.body.hosts).toEqual([{ hostId: host.body.hostId, name: 'Grace Hopper' }]);
    const unknown = await anyone.get<{ code: string; detail: string }>('/v1/visit/ZZZZZZZZZZ');
    expect(unknown.status).toBe(404);
    expect(unknown.body.detail).toMatch(/ask reception/);
    expect((await anyone.get('/v1/visit/short')).status).toBe(404);
  });

  it('checks in, takes and ends a break and checks out, all by the visit key, each from QR_CODE', async () => {
    const { world, server } = harness;
    const host = await world.api.post<Host>('/v1/hosts', { name: 'Grace Hopper', siteIds: [world.siteId] });
    const code = await visitCodeOf(world.api, world.siteId);
    const mine = phone(server.baseUrl);
    const body = { ...visitor('Ada', 'Lovelace'), hostId: host.body.hostId };
    const idempotencyKey = randomUUID();
    const created = await mine.checkIn(code, body, idempotencyKey);
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ status: 'IN', firstName: 'Ada', hostName: 'Grace Hopper', exit: null });
    expect(created.body.entry.source).toBe('QR_CODE');
    expect(JSON.stringify(created.body)).not.toContain(mine.key);
    // The answer lost on the way: the same request again answers the same, and makes nothing new.
    const again = await mine.checkIn(code, body, idempotencyKey);
    expect(again.status).toBe(201);
    expect(again.headers.get('Idempotent-Replayed')).toBe('true');
    expect(again.body.checkinId).toBe(created.body.checkinId);
    const id = created.body.checkinId;
    expect((await mine.read(code, id)).body.status).toBe('IN');
    const onBreak = await mine.act(code, id, 'breaks/start');
    expect(onBreak.status).toBe(200);
    expect(onBreak.body.status).toBe('ON_BREAK');
    expect((await mine.act(code, id, 'breaks/start')).body).toMatchObject({ code: 'BREAK_ALREADY_OPEN' });
    const back = await mine.act(code, id, 'breaks/end');
    expect(back.body.status).toBe('IN');
    expect(back.body.breaks).toHaveLength(1);
    const out = await mine.act(code, id, 'checkout');
    expect(out.status).toBe(200);
    expect(out.body.status).toBe('OUT');
    expect(out.body.exit?.source).toBe('QR_CODE');
    expect((await mine.act(code, id, 'checkout')).body).toMatchObject({ code: 'CHECKIN_CLOSED' });
    // Staff see the same visit, made and ended on the phone; the key is kept as a hash only.
    const record = await world.api.get<PersonCheckin>(people(world.siteId, id));
    expect(record.body).toMatchObject({ status: 'OUT', hostId: host.body.hostId });
    expect(record.body.entry.source).toBe('QR_CODE');
    expect(record.body.exit?.source).toBe('QR_CODE');
    const keys = await queryRows<{ key_hash: Buffer }>(
      server.database,
      sql`SELECT key_hash FROM visit_keys WHERE checkin_id = ${id}`,
    );
    expect(keys).toHaveLength(1);
    expect(keys[0]?.key_hash.toString('base64url')).not.toBe(mine.key);
    expect(keys[0]?.key_hash).toHaveLength(32);
  });

  it('records the language the phone showed (the badge is printed in it); one Gatehouse does not speak is a 422', async () => {
    const { world, server } = harness;
    const code = await visitCodeOf(world.api, world.siteId);
    const recorded = async (checkinId: number) =>
      (await world.api.get<PersonCheckin>(people(world.siteId, checkinId))).body.language;
    const german = await phone(server.baseUrl).checkIn(code, { ...visitor('Jürgen', 'Haddad'), language: 'de' });
    expect(german.status).toBe(201);
    expect(await recorded(german.body.checkinId)).toBe('de');
    const arabic = await phone(server.baseUrl).checkIn(code, { ...visitor('ليلى', 'حداد'), language: 'ar' });
    expect(await recorded(arabic.body.checkinId)).toBe('ar');
    // An older page that sends none: the record names none (the badge then speaks the site's default).
    const none = await phone(server.baseUrl).checkIn(code, visitor('Old', 'Page'));
    expect(await recorded(none.body.checkinId)).toBeNull();
    const unknown = await phone(server.baseUrl).checkIn(code, {
      ...visitor('Traditional', 'Chinese'),
      language: 'zh-TW',
    });
    expect(unknown.status).toBe(422);
  });

  it('needs a well-formed visit key to check in or to read or change a visit', async () => {
    const { world, server } = harness;
    const code = await visitCodeOf(world.api, world.siteId);
    const anyone = apiClient(server.baseUrl);
    const bare = await anyone.post(`/v1/visit/${code}/checkins`, visitor(), { idempotencyKey: randomUUID() });
    expect(bare.status).toBe(401);
    expect(bare.headers.get('WWW-Authenticate')).toBe('Visit');
    const bad = apiClient(server.baseUrl, undefined, { Authorization: 'Visit too-short' });
    expect((await bad.post(`/v1/visit/${code}/checkins`, visitor())).status).toBe(401);
    const mine = phone(server.baseUrl);
    const created = await mine.checkIn(code, visitor());
    expect((await anyone.get(`/v1/visit/${code}/checkins/${created.body.checkinId}`)).status).toBe(401);
    expect((await anyone.post(`/v1/visit/${code}/checkins/${created.body.checkinId}/checkout`)).status).toBe(401);
  });

  it('a watchlisted visitor gets STOP and nothing else: no reason, no action from the phone', async () => {
    const { world, server } = harness;
    await world.api.post('/v1/watchlist/people', { email: 'eve@example.com', reason: 'Banned after the incident' });
    const code = await visitCodeOf(world.api, world.siteId);
    const mine = phone(server.baseUrl);
    const created = await mine.checkIn(code, { person: { firstName: 'Eve', lastName: 'S', email: 'eve@example.com' } });
    expect(created.status).toBe(201);
    expect(created.body.status).toBe('STOP');
    expect(created.text).not.toMatch(/Banned|incident|reason|eve@example/i);
    for (const verb of ['breaks/start', 'checkout'] as const) {
      const refused = await mine.act(code, created.body.checkinId, verb);
      expect(refused.status).toBe(409);
      expect(refused.body).toMatchObject({ code: 'CHECKIN_NOT_ADMITTED', current: { status: 'STOP' } });
      expect(refused.text).not.toMatch(/Banned|incident|eve@example/i);
    }
    expect((await mine.read(code, created.body.checkinId)).text).not.toMatch(/Banned|incident/);
  });

  it('with "QR check-ins need approval" a phone check-in waits, and the phone reads the decision', async () => {
    const { world, server } = harness;
    const changed = await world.api.patch<Site>(`/v1/sites/${world.siteId}`, { visit: { requiresApproval: true } });
    expect(changed.body.visit.requiresApproval).toBe(true);
    const code = changed.body.visit.code;
    const mine = phone(server.baseUrl);
    const created = await mine.checkIn(code, visitor('Ada', 'Waiting'));
    expect(created.body.status).toBe('PENDING');
    expect((await mine.act(code, created.body.checkinId, 'breaks/start')).body).toMatchObject({
      code: 'CHECKIN_NOT_ADMITTED',
    });
    await world.api.post(`${people(world.siteId, created.body.checkinId)}/approve`, {});
    expect((await mine.read(code, created.body.checkinId)).body.status).toBe('IN');
    // Other channels at the site are not held by the phone's setting.
    const kioskLike = await world.api.post<PersonCheckin>(`/v1/sites/${world.siteId}/checkins/people`, visitor());
    expect(kioskLike.body.status).toBe('IN');
    expect(
      (await world.api.patch<Site>(`/v1/sites/${world.siteId}`, { visit: { requiresApproval: false } })).body.visit,
    ).toMatchObject({ requiresApproval: false, code });
  });

  it('an archived site says so and takes no check-in', async () => {
    const { world, server } = harness;
    const code = await visitCodeOf(world.api, world.siteId);
    await world.api.patch(`/v1/sites/${world.siteId}`, { archived: true });
    const mine = phone(server.baseUrl);
    expect((await mine.api.get<VisitSite>(`/v1/visit/${code}`)).body.archived).toBe(true);
    const refused = await mine.checkIn(code, visitor());
    expect(refused.status).toBe(409);
    expect(refused.body).toMatchObject({ code: 'SITE_ARCHIVED' });
  });

  it('refuses what the form refuses, and fields the phone may not send', async () => {
    const { world, server } = harness;
    const code = await visitCodeOf(world.api, world.siteId);
    const mine = phone(server.baseUrl);
    const missing = await mine.checkIn(code, { person: { firstName: 'Ada' } });
    expect(missing.status).toBe(422);
    expect((await mine.checkIn(code, { ...visitor(), labelIds: [1] })).status).toBe(422);
    expect((await mine.checkIn(code, { ...visitor(), occurredAt: new Date().toISOString() })).status).toBe(422);
  });
});

describe('rotating the visit code', () => {
  it('stops the old code at once (page, check-in and the visits begun under it) and the new one works', async () => {
    const { world, server } = harness;
    const old = await visitCodeOf(world.api, world.siteId);
    const mine = phone(server.baseUrl);
    const visit = (await mine.checkIn(old, visitor())).body;
    const rotated = await world.api.post<Site>(`/v1/sites/${world.siteId}/visit-code`, {});
    expect(rotated.status).toBe(200);
    const fresh = rotated.body.visit.code;
    expect(fresh).not.toBe(old);
    expect((await mine.api.get(`/v1/visit/${old}`)).status).toBe(404);
    expect((await mine.checkIn(old, visitor())).status).toBe(404);
    expect((await mine.act(old, visit.checkinId, 'checkout')).status).toBe(404);
    expect((await mine.api.get(`/v1/visit/${fresh}`)).status).toBe(200);
    expect((await phone(server.baseUrl).checkIn(fresh, visitor())).status).toBe(201);
    const audit = await queryRows<{ action: string }>(
      server.database,
      sql`SELECT action FROM audit_events WHERE account_id = ${world.accountId} AND target_id = ${world.siteId}`,
    );
    expect(audit.map((entry) => entry.action)).toContain('site.visit_code_rotated');
  });
});

describe('a visit from a phone sends no key in a URL and keeps none in the log', () => {
  it('the key is only ever in the Authorization header', async () => {
    const { world, server } = harness;
    const code = await visitCodeOf(world.api, world.siteId);
    const key = newVisitKey();
    const mine = phone(server.baseUrl, {}, key);
    const visit = (await mine.checkIn(code, visitor())).body;
    await mine.act(code, visit.checkinId, 'checkout');
    expect(JSON.stringify(server.logs)).not.toContain(key);
  });

  it('a key that opened a visit opens no second one: the phone makes a new key per visit', async () => {
    const { world, server } = harness;
    const code = await visitCodeOf(world.api, world.siteId);
    const mine = phone(server.baseUrl);
    const first = await mine.checkIn(code, visitor('Ada', 'Once'));
    expect(first.status).toBe(201);
    const second = await mine.checkIn(code, visitor('Ada', 'Twice'));
    expect(second.status).toBe(422);
    expect(second.body).toMatchObject({ code: 'VALIDATION_FAILED' });
    const list = await world.api.get<{ data: PersonCheckin[] }>(`/v1/sites/${world.siteId}/checkins/people`);
    expect(list.body.data.filter((item) => item.person.lastName === 'Twice')).toEqual([]);
  });
});

describe('erasure reaches what the phone was answered', () => {
  it('a replay of the check-in and of a refused action names the person no more; the key still opens the visit', async () => {
    const { world, server } = harness;
    const code = await visitCodeOf(world.api, world.siteId);
    const mine = phone(server.baseUrl);
    const body = { person: { firstName: 'Zelda', lastName: 'Quist', email: 'zelda@example.com' } };
    const created = await mine.checkIn(code, body, 'erase-me-create');
    const id = created.body.checkinId;
    await mine.act(code, id, 'checkout');
    const refused = await mine.api.post(`/v1/visit/${code}/checkins/${id}/checkout`, undefined, {
      idempotencyKey: 'erase-me-again',
    });
    expect(refused.status).toBe(409);
    expect(refused.text).toContain('Zelda');
    const owner = await staffClient(server, { accountId: world.accountId, role: 'owner' });
    const erased = await owner.api.post<{ anonymized: number }>('/v1/privacy/erasure', { email: 'zelda@example.com' });
    expect(erased.body).toEqual({ anonymized: 1 });
    const replayed = await mine.checkIn(code, body, 'erase-me-create');
    expect(replayed.headers.get('Idempotent-Replayed')).toBe('true');
    expect(replayed.body).toMatchObject({ checkinId: id, firstName: 'Deleted', lastName: 'Deleted' });
    const again = await mine.api.post(`/v1/visit/${code}/checkins/${id}/checkout`, undefined, {
      idempotencyKey: 'erase-me-again',
    });
    expect(again.headers.get('Idempotent-Replayed')).toBe('true');
    expect(again.text).not.toMatch(/Zelda|Quist/);
    const rows = await queryRows<{ n: number }>(
      server.database,
      sql`SELECT count(*)::int AS n FROM idempotency_keys WHERE account_id = ${world.accountId} AND body ILIKE '%zelda%'`,
    );
    expect(rows[0]?.n).toBe(0);
    expect((await mine.read(code, id)).body).toMatchObject({ firstName: 'Deleted', status: 'OUT' });
  });
});
