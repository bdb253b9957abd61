import { describe, expect, it } from 'vitest';
import { createAdministrationClient, createKioskLinkClient } from '../../shared/src/client/administration';
import { normalizePairingCode, pairingLink, parsePairingLink } from '../../shared/src/schemas/kiosks';

describe('pairing codes and the pairing QR text', () => {
  it('normalizes a code as typed: case, spaces and dashes do not matter', () => {
    expect(normalizePairingCode(' k7m2-qx9d ')).toBe('K7M2QX9D');
    expect(normalizePairingCode('K7M2 QX9D')).toBe('K7M2QX9D');
  });

  it('reads back the server and code of the QR text it writes', () => {
    const text = pairingLink('https://gate.example.com:8443', 'K7M2QX9D');
    expect(text).toBe('gatehouse://pair?server=https%3A%2F%2Fgate.example.com%3A8443&code=K7M2QX9D');
    expect(parsePairingLink(text)).toEqual({ server: 'https://gate.example.com:8443', code: 'K7M2QX9D' });
    expect(parsePairingLink('K7M2QX9D')).toBeUndefined();
    expect(parsePairingLink('gatehouse://pair?code=K7M2QX9D')).toBeUndefined();
  });
});

describe('the administration and kiosk-link clients', () => {
  const answering = (status: number, body: unknown) => {
    const sent: Array<{ url: string; init: RequestInit }> = [];
    const fetch = async (url: string, init: RequestInit) => {
      sent.push({ url, init });
      return new Response(status === 204 ? null : JSON.stringify(body), {
        status,
        headers: { 'Content-Type': 'application/json' },
      });
    };
    return { sent, options: { baseUrl: 'http://api.test/v1/', fetch, now: () => Date.now() } };
  };

  it('sends If-Match with a form save and reads a 412 as a refusal', async () => {
    const problem = {
      type: 'urn:problem:precondition-failed',
      title: 'Precondition failed',
      status: 412,
      detail: 'Changed.',
      code: 'PRECONDITION_FAILED',
      instance: '/v1/sites/1/checkins/people/config',
      requestId: 'r',
      current: {},
    };
    const { sent, options } = answering(412, problem);
    const outcome = await createAdministrationClient(options).putCheckinConfig(
      1,
      { requiresApproval: false, fields: [] },
      '"cfg-1-2"',
    );
    expect(outcome).toMatchObject({ kind: 'refused', status: 412, problem: { code: 'PRECONDITION_FAILED' } });
    expect(sent[0]?.url).toBe('http://api.test/v1/sites/1/checkins/people/config');
    expect(new Headers(sent[0]?.init.headers).get('If-Match')).toBe('"cfg-1-2"');
  });

  it('pairs without a token and reads a newer mode as text', async () => {
    const { sent, options } = answering(200, {
      token: 'ck_x',
      kioskId: 4,
      siteId: 1,
      mode: 'turnstile',
      name: 'Lobby',
    });
    const outcome = await createKioskLinkClient(options).pair('K7M2QX9D');
    expect(outcome).toMatchObject({ kind: 'ok', value: { kioskId: 4, mode: 'turnstile' } });
    expect(new Headers(sent[0]?.init.headers).get('Authorization')).toBeNull();
    expect(sent[0]?.url).toBe('http://api.test/v1/kiosk/pair');
  });

  it('lists kiosks of the sites asked for', async () => {
    const { sent, options } = answering(200, { data: [], nextCursor: null });
    await createAdministrationClient(options).listKiosks({ siteIds: [1, 2] });
    expect(sent[0]?.url).toBe('http://api.test/v1/kiosks?limit=200&siteIds=1%2C2');
  });
});
