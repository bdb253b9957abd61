import { generateKeyPairSync } from 'node:crypto';
import { CompactSign, calculateJwkThumbprint, compactVerify, createLocalJWKSet } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Alert } from '../../shared/src/schemas/alerts';
import type { Invitation, KioskPasses, PassKeyList } from '../../shared/src/schemas/invitations';
import type { PersonCheckin } from '../../shared/src/schemas/personCheckins';
import { checkPassSignature } from '../../shared/src/passes/passSignature';
import { queryRows } from '../../server/src/db/query';
import { sql } from '../../server/src/db/sql';
import { type World, buildToken, buildWorld } from '../support/factories';
import { type ApiClient } from '../support/http';
import { invite, passClaims, passHeader, passOf } from '../support/invitations';
import { staffClient } from '../support/staff';
import { type TestServer, startTestServer } from '../support/testServer';

const HOUR = 3_600_000;
/** The server's clock runs `shift` ahead of the machine's: a test moves it to let passes expire. */
let shift = 0;
let server: TestServer;
let world: World;
/** Reception, who sees the alerts. */
let reception: ApiClient;

beforeAll(async () => {
  server = await startTestServer(
    { SIGNIN_FAILURES_PER_ADDRESS: '1000' },
    { clock: () => new Date(Date.now() + shift) },
  );
  world = await buildWorld(server);
  reception = (await staffClient(server, { accountId: world.accountId, role: 'reception' })).api;
});
afterAll(async () => server?.close());

const people = (siteId = world.siteId) => `/v1/sites/${siteId}/checkins/people`;
const checkInWith = (pass: string, extra: Record<string, unknown> = {}, siteId = world.siteId) =>
  world.api.post<PersonCheckin & { code?: string; errors?: Array<{ path: string; message: string }> }>(people(siteId), {
    person: {},
    pass,
    ...extra,
  });
const invitation = async (id: number) => (await world.api.get<Invitation>(`/v1/invitations/${id}`)).body;
const jwks = async () => (await world.api.get<PassKeyList>('/v1/pass-keys')).body;
const passAlerts = async () =>
  (await reception.get<{ data: Alert[] }>('/v1/alerts?limit=200')).body.data.filter((alert) => alert.kind === 'pass');

/** A token like a pass, with the payload changed after signing (or signed by another key under the same kid). */
function tampered(token: string, claims: Record<string, unknown>): string {
  const [header = '', , signature = ''] = token.split('.');
  return `${header}.${Buffer.from(JSON.stringify(claims)).toString('base64url')}.${signature}`;
}

describe('a pass: what it is and how it verifies', () => {
  it('is a JWS signed with EdDSA, its key id in the header, its claims those of the invitation, verifiable with the published keys', async () => {
    const created = await invite(world.api, world.siteId);
    const { token, qrPng, validFrom, validUntil } = await passOf(world.api, created.invitationId);
    const { kid, ...header } = passHeader(token);
    expect(header).toEqual({ alg: 'EdDSA', typ: 'gatehouse-pass+jwt' });
    expect(kid).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const claims = passClaims(token);
    const { jti, ...named } = claims;
    expect(jti).toMatch(/^[A-Za-z0-9_-]{22}$/);
    expect(named).toEqual({
      acct: world.accountId,
      inv: created.invitationId,
      site: world.siteId,
      firstName: 'Ada',
      lastName: 'Lovelace',
      nbf: Date.parse(validFrom) / 1000,
      exp: Date.parse(validUntil) / 1000,
    });
    expect(Buffer.from(qrPng, 'base64').subarray(1, 4).toString()).toBe('PNG');
    // Any JOSE library verifies it with the account's JWK Set; the private key is never in it.
    const keys = await jwks();
    expect(keys.keys.map((key) => key.kid)).toContain(passHeader(token).kid);
    expect(JSON.stringify(keys)).not.toMatch(/"d"/);
    const verified = await compactVerify(token, createLocalJWKSet(keys));
    expect(JSON.parse(new TextDecoder().decode(verified.payload))).toEqual(claims);
    // The kiosk's own check, by WebCrypto and by its pure-JS fallback alike.
    for (const webCrypto of [true, false]) {
      const checked = await checkPassSignature(token, keys.keys, { webCrypto });
      expect(checked.ok, `webCrypto ${webCrypto}`).toBe(true);
    }
    // Each invitation has a pass of its own.
    const other = await passOf(world.api, (await invite(world.api, world.siteId)).invitationId);
    expect(passClaims(other.token).jti).not.toBe(claims.jti);
  });

  it('the kiosk gets the keys and its site’s revoked passes, with an ETag', async () => {
    const path = `/v1/sites/${world.siteId}/kiosk/passes`;
    const first = await world.api.get<KioskPasses>(path);
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ accountId: world.accountId, siteId: world.siteId });
    expect(first.body.keys).toEqual({
      keys: (await jwks()).keys.map(({ createdAt: _c, retiredAt: _r, ...jwk }) => jwk),
    });
    const etag = first.headers.get('etag') ?? '';
    expect((await world.api.get(path, { headers: { 'If-None-Match': etag } })).status).toBe(304);
    const created = await invite(world.api, world.siteId);
    const { token } = await passOf(world.api, created.invitationId);
    expect((await world.api.post(`/v1/invitations/${created.invitationId}/cancel`)).status).toBe(200);
    const after = await world.api.get<KioskPasses>(path, { headers: { 'If-None-Match': etag } });
    expect(after.status).toBe(200);
    expect(after.body.revoked).toContain(passClaims(token).jti);
    // Another site's kiosk is not told of this site's revoked passes.
    const other = await world.api.get<KioskPasses>(`/v1/sites/${world.otherSiteId}/kiosk/passes`);
    expect(other.body.revoked).not.toContain(passClaims(token).jti);
  });
});

describe('the invitation’s life: expected, then arrived by its pass, once', () => {
  it('a check-in with the pass admits the visitor, fills in the invitation’s details, tells the host, and marks it arrived', async () => {
    const host = (
      await world.api.post<{ hostId: number }>('/v1/hosts', {
        name: 'Grace',
        email: 'grace@example.com',
        siteIds: [world.siteId],
      })
    ).body;
    const created = await invite(world.api, world.siteId, {
      person: { firstName: 'Ada', lastName: 'Lovelace', company: 'ACME', phone: '+44 1234' },
      hostId: host.hostId,
      purpose: 'Design review',
    });
    expect(created.status).toBe('expected');
    const { token } = await passOf(world.api, created.invitationId);
    const arrival = await checkInWith(token);
    expect(arrival.status, arrival.text).toBe(201);
    expect(arrival.body).toMatchObject({
      status: 'IN',
      invitationId: created.invitationId,
      pendingReason: null,
      person: { firstName: 'Ada', lastName: 'Lovelace', company: 'ACME', phone: '+44 1234' },
      hostId: host.hostId,
      hostName: 'Grace',
      purpose: 'Design review',
    });
    const arrived = await invitation(created.invitationId);
    expect(arrived).toMatchObject({
      status: 'arrived',
      checkinId: arrival.body.checkinId,
      arrivedAt: arrival.body.entry.at,
    });
    const told = await world.api.get<{ data: Array<{ event: string }> }>(
      `/v1/notifications?checkinId=${arrival.body.checkinId}`,
    );
    expect(told.body.data.map((item) => item.event)).toEqual(['arrived']);
  });

  it('the same pass again is held PENDING with when it was used, raises an alert, and leaves the invitation as it was', async () => {
    const created = await invite(world.api, world.siteId);
    const { token } = await passOf(world.api, created.invitationId);
    const first = await checkInWith(token);
    expect(first.body.status).toBe('IN');
    const second = await checkInWith(token);
    expect(second.status, second.text).toBe(201);
    const hhmm = new Date(first.body.entry.at).toISOString().slice(11, 16);
    expect(second.body).toMatchObject({
      status: 'PENDING',
      invitationId: created.invitationId,
      pendingReason: `Pass already used at ${hhmm}`,
    });
    expect((await invitation(created.invitationId)).checkinId).toBe(first.body.checkinId);
    const alert = (await passAlerts()).find((item) => item.checkinId === second.body.checkinId);
    expect(alert).toMatchObject({ source: 'pass', subject: 'Ada Lovelace', reason: `Pass already used at ${hhmm}` });
    // Reception decides: the alert is acknowledged like any other.
    expect((await reception.post(`/v1/alerts/pass/${second.body.checkinId}/acknowledge`)).status).toBe(200);
  });

  it('two kiosks syncing the same pass at once: exactly one is admitted, the other held', async () => {
    const created = await invite(world.api, world.siteId);
    const { token } = await passOf(world.api, created.invitationId);
    const answers = await Promise.all(Array.from({ length: 4 }, () => checkInWith(token)));
    expect(answers.map((answer) => answer.status)).toEqual([201, 201, 201, 201]);
    const statuses = answers.map((answer) => answer.body.status).sort();
    expect(statuses).toEqual(['IN', 'PENDING', 'PENDING', 'PENDING']);
    const admitted = answers.find((answer) => answer.body.status === 'IN');
    expect((await invitation(created.invitationId)).checkinId).toBe(admitted?.body.checkinId);
  });

  it('an offline kiosk’s late sync is judged at the time the pass was shown', async () => {
    const created = await invite(world.api, world.siteId, {
      expectedAt: new Date(Date.now() - 2 * HOUR).toISOString(),
      validFrom: new Date(Date.now() - 3 * HOUR).toISOString(),
      validUntil: new Date(Date.now() + HOUR).toISOString(),
    });
    const { token } = await passOf(world.api, created.invitationId);
    // Shown an hour and a half ago (a kiosk offline since), synced two hours after the pass expired.
    const shownAt = new Date(Date.now() - 1.5 * HOUR).toISOString();
    shift = 3 * HOUR;
    try {
      expect((await invitation(created.invitationId)).status).toBe('expired');
      const late = await checkInWith(token, { occurredAt: shownAt });
      expect(late.status, late.text).toBe(201);
      expect(late.body.status).toBe('IN');
    } finally {
      shift = 0;
    }
  });
});

describe('passes not honoured', () => {
  it('cancelled: held PENDING with why, and an alert', async () => {
    const created = await invite(world.api, world.siteId);
    const { token } = await passOf(world.api, created.invitationId);
    expect((await world.api.post(`/v1/invitations/${created.invitationId}/cancel`)).body).toMatchObject({
      status: 'cancelled',
    });
    const held = await checkInWith(token);
    expect(held.body).toMatchObject({ status: 'PENDING', pendingReason: 'Pass of a cancelled invitation' });
    expect((await passAlerts()).map((alert) => alert.checkinId)).toContain(held.body.checkinId);
    expect((await invitation(created.invitationId)).status).toBe('cancelled');
  });

  it('replaced by a change of the invitation: the old pass is revoked, the new one admits', async () => {
    const created = await invite(world.api, world.siteId);
    const old = (await passOf(world.api, created.invitationId)).token;
    const changed = await world.api.patch(`/v1/invitations/${created.invitationId}`, { person: { lastName: 'King' } });
    expect(changed.status).toBe(200);
    const renewed = (await passOf(world.api, created.invitationId)).token;
    expect(passClaims(renewed)).toMatchObject({ lastName: 'King' });
    const revoked = (await world.api.get<KioskPasses>(`/v1/sites/${world.siteId}/kiosk/passes`)).body.revoked;
    expect(revoked).toContain(passClaims(old).jti);
    expect((await checkInWith(old)).body).toMatchObject({
      status: 'PENDING',
      pendingReason: 'Pass replaced by a newer one (the invitation was changed)',
    });
    expect((await checkInWith(renewed)).body).toMatchObject({ status: 'IN', person: { lastName: 'King' } });
  });

  it('not yet valid, and expired: held with the time it is valid from or expired at; an expired invitation reads so', async () => {
    const soon = new Date(Date.now() + 2 * HOUR);
    const early = await invite(world.api, world.siteId, {
      expectedAt: soon.toISOString(),
      validFrom: soon.toISOString(),
      validUntil: new Date(soon.getTime() + HOUR).toISOString(),
    });
    const tooEarly = await checkInWith((await passOf(world.api, early.invitationId)).token);
    expect(tooEarly.body.status).toBe('PENDING');
    expect(tooEarly.body.pendingReason).toMatch(/^Pass not valid until \w{3} \d{1,2} \w{3}, \d{2}:\d{2} UTC$/);

    const created = await invite(world.api, world.siteId, {
      validUntil: new Date(Date.now() + HOUR).toISOString(),
    });
    const { token } = await passOf(world.api, created.invitationId);
    shift = 2 * HOUR;
    try {
      expect((await invitation(created.invitationId)).status).toBe('expired');
      expect((await world.api.get(`/v1/invitations/${created.invitationId}/pass`)).status).toBe(409);
      const late = await checkInWith(token);
      expect(late.body.status).toBe('PENDING');
      expect(late.body.pendingReason).toMatch(/^Pass expired (at \d{2}:\d{2}|on .+)$/);
      // An expired invitation's revoked pass is no longer listed: its validity refuses it anyway.
      const listed = await world.api.get<{ data: Invitation[] }>(
        `/v1/invitations?status=expired&siteIds=${world.siteId}&limit=200`,
      );
      expect(listed.body.data.map((item) => item.invitationId)).toContain(created.invitationId);
    } finally {
      shift = 0;
    }
  });

  it('forged, made up, of another site or another account: 422 at pass, and nothing is created', async () => {
    const created = await invite(world.api, world.siteId);
    const { token } = await passOf(world.api, created.invitationId);
    const claims = passClaims(token);
    const stranger = await buildWorld(server);
    const foreign = (await passOf(stranger.api, (await invite(stranger.api, stranger.siteId)).invitationId)).token;
    const elsewhere = (await passOf(world.api, (await invite(world.api, world.otherSiteId)).invitationId)).token;
    // Signed by a key of one's own, named with the account's kid: the signature does not match.
    const { privateKey, publicKey } = generateKeyPairSync('ed25519');
    const ownKid = await calculateJwkThumbprint(publicKey.export({ format: 'jwk' }));
    const sign = (kid: string, payload: Record<string, unknown>) =>
      new CompactSign(Buffer.from(JSON.stringify(payload)))
        .setProtectedHeader({ alg: 'EdDSA', kid, typ: 'gatehouse-pass+jwt' })
        .sign(privateKey);
    const unsigned = `${Buffer.from(JSON.stringify({ alg: 'none', typ: 'gatehouse-pass+jwt' })).toString('base64url')}.${token.split('.')[1]}.`;
    const cases: Array<[string, string, string]> = [
      [
        'altered',
        tampered(token, { ...claims, firstName: 'Eve' }),
        'The pass does not match its signature: it was altered',
      ],
      [
        'signed by another key, same kid',
        await sign(String(passHeader(token).kid), { ...claims, jti: 'made-up-jti-0001' }),
        'The pass does not match its signature: it was altered',
      ],
      ['signed by a key of its own', await sign(ownKid, claims), 'The pass was not signed by this account'],
      ['unsigned', unsigned, 'The pass does not match its signature: it was altered'],
      ['another account’s', foreign, 'The pass was not signed by this account'],
      ['another site’s', elsewhere, 'The pass is for another site'],
      ['not a pass', 'https://example.com/hello', 'This is not a Gatehouse pass'],
    ];
    const before = (await world.api.get<{ data: unknown[] }>(`${people()}?limit=200`)).body.data.length;
    for (const [name, pass, message] of cases) {
      const refused = await checkInWith(pass);
      expect(refused.status, name).toBe(422);
      expect(refused.body.errors, name).toEqual([{ path: 'pass', message }]);
    }
    expect((await world.api.get<{ data: unknown[] }>(`${people()}?limit=200`)).body.data.length).toBe(before);
    expect((await invitation(created.invitationId)).status).toBe('expected');
  });
});

describe('signing keys', () => {
  it('rotation: a new key signs, passes already sent still verify and admit, the old private key is gone', async () => {
    const { api: owner } = await staffClient(server, { accountId: world.accountId, role: 'owner' });
    const before = await invite(world.api, world.siteId);
    const oldPass = (await passOf(world.api, before.invitationId)).token;
    const oldKid = passHeader(oldPass).kid;
    const rotated = await owner.post<{ kid: string; retiredAt: string | null }>('/v1/pass-keys/rotate');
    expect(rotated.status, rotated.text).toBe(201);
    expect(rotated.body.kid).not.toBe(oldKid);
    const keys = await jwks();
    expect(keys.keys.find((key) => key.kid === oldKid)?.retiredAt).not.toBeNull();
    expect(keys.keys.find((key) => key.kid === rotated.body.kid)?.retiredAt).toBeNull();
    const after = await invite(world.api, world.siteId);
    const newPass = (await passOf(world.api, after.invitationId)).token;
    expect(passHeader(newPass).kid).toBe(rotated.body.kid);
    await compactVerify(oldPass, createLocalJWKSet(keys));
    await compactVerify(newPass, createLocalJWKSet(keys));
    expect((await checkInWith(oldPass)).body.status).toBe('IN');
    expect((await checkInWith(newPass)).body.status).toBe('IN');
    const stored = await queryRows<{ kid: string; private_key: Buffer | null }>(
      server.database,
      sql`SELECT kid, private_key FROM pass_signing_keys WHERE account_id = ${world.accountId}`,
    );
    expect(stored.find((row) => row.kid === oldKid)?.private_key).toBeNull();
    // Once every pass the old key signed has expired, it is no longer published.
    shift = 400 * 24 * HOUR;
    try {
      expect((await jwks()).keys.map((key) => key.kid)).toEqual([rotated.body.kid]);
    } finally {
      shift = 0;
    }
    // Rotation is the owners' (the account's credentials); reception cannot.
    expect((await reception.post('/v1/pass-keys/rotate')).status).toBe(403);
  });
});

describe('private keys at rest', () => {
  it('are sealed with PASS_KEY_SECRET; another secret cannot sign, and a rotation makes a key that can', async () => {
    const secret = 'a1f3c9e07b5d2468ace13579bdf02468';
    const sealed = await startTestServer({ PASS_KEY_SECRET: secret, SIGNIN_FAILURES_PER_ADDRESS: '1000' });
    try {
      const account = await buildWorld(sealed);
      const created = await invite(account.api, account.siteId);
      const [row] = await queryRows<{ sealing: string; private_key: Buffer }>(
        sealed.database,
        sql`SELECT sealing, private_key FROM pass_signing_keys WHERE account_id = ${account.accountId}`,
      );
      expect(row?.sealing).toBe('aes-256-gcm');
      // PKCS#8 of Ed25519 begins 30 2e 02 01 00 30 05 06 03 2b 65 70: not to be found in a sealed key.
      expect(row?.private_key.includes(Buffer.from('302e020100300506032b6570', 'hex'))).toBe(false);
      const other = await startTestServer(
        { PASS_KEY_SECRET: 'f0e1d2c3b4a5968778695a4b3c2d1e0f', SIGNIN_FAILURES_PER_ADDRESS: '1000' },
        { databaseUrl: sealed.databaseUrl },
      );
      try {
        const through = (path: string, body?: unknown, token = account.token) =>
          fetch(`${other.baseUrl}${path}`, {
            method: body === undefined ? 'GET' : 'POST',
            headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
            body: body === undefined ? undefined : JSON.stringify(body),
          });
        const visitor = {
          siteId: account.siteId,
          person: { firstName: 'B', lastName: 'C' },
          expectedAt: new Date().toISOString(),
          validFrom: new Date(Date.now() - HOUR).toISOString(),
          validUntil: new Date(Date.now() + HOUR).toISOString(),
        };
        const refused = await through('/v1/invitations', visitor);
        expect(refused.status).toBe(503);
        expect(((await refused.json()) as { detail: string }).detail).toMatch(/PASS_KEY_SECRET/);
        // The pass already made is still read as it was.
        expect((await through(`/v1/invitations/${created.invitationId}/pass`)).status).toBe(200);
        // An owner's rotation makes a key sealed with this server's secret: it signs again.
        const owner = await buildToken(other, { accountId: account.accountId, scopes: ['tokens:manage'] });
        expect((await through('/v1/pass-keys/rotate', {}, owner.token)).status).toBe(201);
        expect((await through('/v1/invitations', visitor)).status).toBe(201);
      } finally {
        await other.close();
      }
    } finally {
      await sealed.close();
    }
  });
});
