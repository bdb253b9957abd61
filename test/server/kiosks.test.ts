import { describe, expect, it } from 'vitest';
import type { Problem } from '../../shared/src/schemas/common';
import type { CreatedKiosk, Kiosk, PairedKiosk, PairingCode } from '../../shared/src/schemas/kiosks';
import { queryRows } from '../../server/src/db/query';
import { sql } from '../../server/src/db/sql';
import { apiClient } from '../support/http';
import { pairedKiosk } from '../support/kiosks';
import { type OpenApiDocument, documentValidator } from '../support/openApiValidator';
import { serverAndWorld } from '../support/serverAndWorld';
import { staffClient } from '../support/staff';

const harness = serverAndWorld({
  env: { SIGNIN_FAILURES_PER_ADDRESS: '1000', TRUST_PROXY: 'true' },
  worldPerTest: true,
});
type KioskList = { data: Kiosk[]; nextCursor: string | null };

let addressCounter = 0;
/** A client from an address of its own (TRUST_PROXY), so each test's wrong codes are counted apart. */
const device = () =>
  apiClient(harness.server.baseUrl, undefined, { 'X-Forwarded-For': `203.0.113.${++addressCounter}` });
const owner = () => staffClient(harness.server, { accountId: harness.world.accountId, role: 'owner' });

async function auditActions(accountId: number) {
  return queryRows<{ action: string; target_id: string; site_id: number | null; actor_type: string; actor_id: number }>(
    harness.server.database,
    sql`SELECT action, target_id, site_id, actor_type, actor_id FROM audit_events WHERE account_id = ${accountId} ORDER BY id`,
  );
}

describe('adding a kiosk and pairing it by code', () => {
  it('creates the kiosk with a KIOSK token and an 8-character code that expires in 15 minutes', async () => {
    const { api } = await owner();
    const before = Date.now();
    const created = await api.post<CreatedKiosk>('/v1/kiosks', {
      siteId: harness.world.siteId,
      mode: 'visitor',
      name: 'Lobby',
    });
    expect(created.status).toBe(201);
    expect(created.body.pairingCode).toMatch(/^[23456789ABCDEFGHJKLMNPQRSTUVWXYZ]{8}$/);
    const expiresIn = Date.parse(created.body.pairingExpiresAt) - before;
    expect(expiresIn).toBeGreaterThan(15 * 60_000 - 5_000);
    expect(expiresIn).toBeLessThanOrEqual(15 * 60_000 + 5_000);
    expect(created.body.kiosk).toMatchObject({
      siteId: harness.world.siteId,
      mode: 'visitor',
      name: 'Lobby',
      pairedAt: null,
      lastSeenAt: null,
    });
    const tokens = await api.get<{
      data: Array<{ tokenId: number; channel: string; siteIds: number[]; scopes: string[] }>;
    }>('/v1/tokens?channel=KIOSK');
    const token = tokens.body.data.find((item) => item.tokenId === created.body.kiosk.tokenId);
    expect(token).toMatchObject({ channel: 'KIOSK', siteIds: [harness.world.siteId] });
    expect(token?.scopes).not.toContain('sites:configure');
    // Only the code's hash is kept.
    const stored = await queryRows<{ hash: Buffer }>(
      harness.server.database,
      sql`SELECT pairing_code_hash AS hash FROM kiosks WHERE id = ${created.body.kiosk.kioskId}`,
    );
    expect(stored[0]?.hash.toString('utf8')).not.toContain(created.body.pairingCode);
    expect((await auditActions(harness.world.accountId)).map((row) => row.action)).toContain('kiosk.create');
  });

  it('pairs with the code typed loosely; the token works; the code works once', async () => {
    const { api } = await owner();
    const created = (
      await api.post<CreatedKiosk>('/v1/kiosks', { siteId: harness.world.siteId, mode: 'gate', name: 'Gate 1' })
    ).body;
    const loose = `${created.pairingCode.slice(0, 4).toLowerCase()}-${created.pairingCode.slice(4)} `;
    const tablet = device();
    const paired = await tablet.post<PairedKiosk>('/v1/kiosk/pair', { code: loose });
    expect(paired.status).toBe(200);
    expect(paired.body).toMatchObject({
      kioskId: created.kiosk.kioskId,
      siteId: harness.world.siteId,
      mode: 'gate',
      name: 'Gate 1',
    });
    const kioskApi = apiClient(harness.server.baseUrl, paired.body.token);
    // A gate's token does a gate's job (issue 31): its site's vehicles on site now, not the people's form.
    expect((await kioskApi.get(`/v1/sites/${harness.world.siteId}/checkins/vehicles`)).status).toBe(200);
    expect((await kioskApi.get(`/v1/sites/${harness.world.siteId}/checkins/people/config`)).status).toBe(403);
    // Its one site only.
    expect((await kioskApi.get(`/v1/sites/${harness.world.otherSiteId}/checkins/vehicles`)).status).toBe(404);
    const again = await tablet.post<Problem>('/v1/kiosk/pair', { code: created.pairingCode });
    expect(again.status).toBe(422);
    expect(again.body.code).toBe('PAIRING_CODE_INVALID');
    expect(again.body.detail).toBe('This pairing code is wrong, used or expired.');
    const listed = (await api.get<KioskList>('/v1/kiosks')).body.data.find(
      (kiosk) => kiosk.kioskId === created.kiosk.kioskId,
    );
    expect(listed?.pairedAt).not.toBeNull();
    const pair = (await auditActions(harness.world.accountId)).find((row) => row.action === 'kiosk.pair');
    expect(pair).toMatchObject({ actor_type: 'token', actor_id: created.kiosk.tokenId, site_id: harness.world.siteId });
    expect(Number(pair?.target_id)).toBe(created.kiosk.kioskId);
  });

  it('a fresh code replaces the unused one; pairing again moves the kiosk and the old device gets 401', async () => {
    const { api } = await owner();
    const created = (
      await api.post<CreatedKiosk>('/v1/kiosks', { siteId: harness.world.siteId, mode: 'visitor', name: 'Lobby' })
    ).body;
    const first = (await device().post<PairedKiosk>('/v1/kiosk/pair', { code: created.pairingCode })).body;
    const fresh = await api.post<PairingCode>(`/v1/kiosks/${created.kiosk.kioskId}/pairing-code`);
    expect(fresh.status).toBe(201);
    const unused = await api.post<PairingCode>(`/v1/kiosks/${created.kiosk.kioskId}/pairing-code`);
    // The earlier unused code stops working.
    expect((await device().post('/v1/kiosk/pair', { code: fresh.body.pairingCode })).status).toBe(422);
    const second = await device().post<PairedKiosk>('/v1/kiosk/pair', { code: unused.body.pairingCode });
    expect(second.status).toBe(200);
    expect(second.body.token).not.toBe(first.token);
    const config = `/v1/sites/${harness.world.siteId}/checkins/people/config`;
    expect((await apiClient(harness.server.baseUrl, first.token).get(config)).status).toBe(401);
    expect((await apiClient(harness.server.baseUrl, second.body.token).get(config)).status).toBe(200);
    expect(
      (await auditActions(harness.world.accountId)).filter((row) => row.action === 'kiosk.pairing_code'),
    ).toHaveLength(2);
  });

  it('a kiosk added by the test helper pairs by its code (what kiosk and console tests build on)', async () => {
    const paired = await pairedKiosk(harness.server, {
      accountId: harness.world.accountId,
      siteId: harness.world.otherSiteId,
      mode: 'gate',
    });
    expect(paired).toMatchObject({ siteId: harness.world.otherSiteId, mode: 'gate' });
    expect(
      (
        await apiClient(harness.server.baseUrl, paired.token).post('/v1/kiosk/heartbeat', {
          pending: 0,
          attention: 0,
          appVersion: '1',
        })
      ).status,
    ).toBe(204);
  });

  it('an expired code is refused', async () => {
    const { api } = await owner();
    const created = (
      await api.post<CreatedKiosk>('/v1/kiosks', { siteId: harness.world.siteId, mode: 'visitor', name: 'Lobby' })
    ).body;
    await queryRows(
      harness.server.database,
      sql`UPDATE kiosks SET pairing_expires_at = now() - interval '1 second' WHERE id = ${created.kiosk.kioskId}`,
    );
    const answer = await device().post<Problem>('/v1/kiosk/pair', { code: created.pairingCode });
    expect(answer.status).toBe(422);
    expect(answer.body.code).toBe('PAIRING_CODE_INVALID');
  });

  it('counts wrong codes per address: the 10th is 429 with Retry-After, and so is a right code after it', async () => {
    const { api } = await owner();
    const created = (
      await api.post<CreatedKiosk>('/v1/kiosks', { siteId: harness.world.siteId, mode: 'visitor', name: 'Lobby' })
    ).body;
    const guesser = device();
    for (let attempt = 1; attempt <= 9; attempt += 1) {
      expect(
        (await guesser.post('/v1/kiosk/pair', { code: `WRONG${String(attempt).padStart(3, '2')}` })).status,
        `attempt ${attempt}`,
      ).toBe(422);
    }
    const tenth = await guesser.post<Problem>('/v1/kiosk/pair', { code: 'WRONGXYZ' });
    expect(tenth.status).toBe(429);
    expect(tenth.body.code).toBe('RATE_LIMITED');
    expect(Number(tenth.headers.get('retry-after'))).toBeGreaterThan(14 * 60);
    expect((await guesser.post('/v1/kiosk/pair', { code: created.pairingCode })).status).toBe(429);
    const doc = (await apiClient(harness.server.baseUrl).get<OpenApiDocument>('/v1/openapi.json')).body;
    expect(documentValidator(doc).responseErrors('POST /kiosk/pair', 429, tenth.body)).toEqual([]);
    // Another address is not held back, and the code was not spent.
    expect((await device().post('/v1/kiosk/pair', { code: created.pairingCode })).status).toBe(200);
  });
});

describe('heartbeat and revoking', () => {
  async function pairedKiosk() {
    const { api } = await owner();
    const created = (
      await api.post<CreatedKiosk>('/v1/kiosks', { siteId: harness.world.siteId, mode: 'visitor', name: 'Lobby' })
    ).body;
    const paired = (await device().post<PairedKiosk>('/v1/kiosk/pair', { code: created.pairingCode })).body;
    return { api, kiosk: created.kiosk, kioskApi: apiClient(harness.server.baseUrl, paired.token) };
  }

  it("records the last heartbeat on the kiosk, unaudited; a token that is not a kiosk's is 404", async () => {
    const { api, kiosk, kioskApi } = await pairedKiosk();
    const before = Date.now();
    const beat = await kioskApi.post('/v1/kiosk/heartbeat', { pending: 3, attention: 1, appVersion: '1.4.0' });
    expect(beat.status).toBe(204);
    const listed = (await api.get<KioskList>('/v1/kiosks')).body.data.find((item) => item.kioskId === kiosk.kioskId);
    expect(listed).toMatchObject({ pending: 3, attention: 1, appVersion: '1.4.0' });
    expect(Date.parse(listed?.lastSeenAt ?? '')).toBeGreaterThanOrEqual(before - 1000);
    expect((await auditActions(harness.world.accountId)).map((row) => row.action)).not.toContain('kiosk.heartbeat');
    const integrator = await harness.world.api.post<Problem>('/v1/kiosk/heartbeat', {
      pending: 0,
      attention: 0,
      appVersion: '1.4.0',
    });
    expect(integrator.status).toBe(404);
    expect((await api.post('/v1/kiosk/heartbeat', { pending: 0, attention: 0, appVersion: '1.4.0' })).status).toBe(404);
  });

  it("revoking answers 401 to the kiosk's next request and drops it from the list", async () => {
    const { api, kiosk, kioskApi } = await pairedKiosk();
    expect((await api.delete(`/v1/kiosks/${kiosk.kioskId}`)).status).toBe(204);
    expect((await kioskApi.post('/v1/kiosk/heartbeat', { pending: 0, attention: 0, appVersion: '1.4.0' })).status).toBe(
      401,
    );
    expect((await kioskApi.get(`/v1/sites/${harness.world.siteId}/checkins/people`)).status).toBe(401);
    expect((await api.get<KioskList>('/v1/kiosks')).body.data.map((item) => item.kioskId)).not.toContain(kiosk.kioskId);
    expect((await api.delete(`/v1/kiosks/${kiosk.kioskId}`)).status).toBe(404);
    expect((await api.post(`/v1/kiosks/${kiosk.kioskId}/pairing-code`)).status).toBe(404);
    const revoke = (await auditActions(harness.world.accountId)).find((row) => row.action === 'kiosk.revoke');
    expect(revoke).toMatchObject({ site_id: harness.world.siteId });
  });

  it("revoking the kiosk's token through /v1/tokens revokes the kiosk too", async () => {
    const { api, kiosk, kioskApi } = await pairedKiosk();
    expect((await api.delete(`/v1/tokens/${kiosk.tokenId}`)).status).toBe(204);
    expect((await kioskApi.get(`/v1/sites/${harness.world.siteId}/checkins/people`)).status).toBe(401);
    expect((await api.get<KioskList>('/v1/kiosks')).body.data.map((item) => item.kioskId)).not.toContain(kiosk.kioskId);
  });
});

describe('who may manage kiosks', () => {
  it('a manager manages kiosks on their sites only; reception and security get 403', async () => {
    const { world, server } = harness;
    const { api: ownerApi } = await owner();
    const elsewhere = (
      await ownerApi.post<CreatedKiosk>('/v1/kiosks', { siteId: world.otherSiteId, mode: 'visitor', name: 'Elsewhere' })
    ).body.kiosk;
    const manager = (
      await staffClient(server, { accountId: world.accountId, role: 'manager', siteIds: [world.siteId] })
    ).api;
    const mine = await manager.post<CreatedKiosk>('/v1/kiosks', {
      siteId: world.siteId,
      mode: 'visitor',
      name: 'Mine',
    });
    expect(mine.status).toBe(201);
    expect(
      (await manager.post<Problem>('/v1/kiosks', { siteId: world.otherSiteId, mode: 'visitor', name: 'Not mine' }))
        .status,
    ).toBe(422);
    const listed = (await manager.get<KioskList>('/v1/kiosks')).body.data.map((kiosk) => kiosk.kioskId);
    expect(listed).toContain(mine.body.kiosk.kioskId);
    expect(listed).not.toContain(elsewhere.kioskId);
    expect((await manager.get(`/v1/kiosks?siteIds=${world.otherSiteId}`)).status).toBe(404);
    expect((await manager.post(`/v1/kiosks/${elsewhere.kioskId}/pairing-code`)).status).toBe(404);
    expect((await manager.delete(`/v1/kiosks/${elsewhere.kioskId}`)).status).toBe(404);
    expect((await manager.post(`/v1/kiosks/${mine.body.kiosk.kioskId}/pairing-code`)).status).toBe(201);
    for (const role of ['reception', 'security'] as const) {
      const staff = (await staffClient(server, { accountId: world.accountId, role, siteIds: [world.siteId] })).api;
      expect((await staff.get('/v1/kiosks')).status, role).toBe(403);
      expect((await staff.post('/v1/kiosks', { siteId: world.siteId, mode: 'visitor', name: 'X' })).status, role).toBe(
        403,
      );
      expect((await staff.delete(`/v1/kiosks/${mine.body.kiosk.kioskId}`)).status, role).toBe(403);
    }
  });

  it('pages the list newest first with a cursor', async () => {
    const { api } = await owner();
    const ids: number[] = [];
    for (const name of ['One', 'Two', 'Three']) {
      ids.push(
        (await api.post<CreatedKiosk>('/v1/kiosks', { siteId: harness.world.siteId, mode: 'visitor', name })).body.kiosk
          .kioskId,
      );
    }
    const first = (await api.get<KioskList>('/v1/kiosks?limit=2')).body;
    expect(first.data.map((kiosk) => kiosk.kioskId)).toEqual([ids[2], ids[1]]);
    const second = (await api.get<KioskList>(`/v1/kiosks?limit=2&cursor=${first.nextCursor}`)).body;
    expect(second.data.map((kiosk) => kiosk.kioskId)).toEqual([ids[0]]);
    expect(second.nextCursor).toBeNull();
  });
});
