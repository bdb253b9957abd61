import dns from 'node:dns';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Problem } from '../../shared/src/schemas/common';
import { guardedLookup } from '../../server/src/webhooks/addressPolicy';
import { serverAndWorld } from '../support/serverAndWorld';
import { subscribe } from '../support/webhooks';

// WEBHOOK_ALLOW_PRIVATE_URLS is off (the default). Nothing here sends a request to any of these addresses:
// subscriptions are only saved (no event fires), and the connection check runs on a stubbed DNS answer.
const setup = serverAndWorld();
const collection = '/v1/webhooks/subscriptions';

/** Addresses that are not global unicast, each as a URL host: IPv4 inside IPv6 in every form, and the special ranges. */
const notGlobal = [
  '[::127.0.0.1]',
  '[::ffff:0:127.0.0.1]',
  '[::ffff:0:7f00:1]',
  '[::ffff:10.0.0.1]',
  '[2002:7f00:1::]',
  '[2002:c0a8:1::1]',
  '[64:ff9b::127.0.0.1]',
  '[64:ff9b::a00:1]',
  '[64:ff9b:1::8.8.8.8]',
  '[2001::1]',
  '[2001:0:4136:e378:8000:63bf:3fff:fdd2]',
  '[100::1]',
  '[2001:db8::1]',
  '[3fff::1]',
  '[fd00::1]',
  '[fe80::1]',
  '[ff02::1]',
  '[::]',
  '192.0.2.10',
  '198.51.100.7',
  '203.0.113.7',
  '192.88.99.1',
  '192.0.0.9',
  '198.18.0.1',
  '240.0.0.1',
];

describe('webhook URLs must name a global unicast address', () => {
  for (const host of notGlobal) {
    it(`refuses ${host} when saved (422 at url), unless private URLs are allowed`, async () => {
      const response = await setup.world.api.post<Problem>(collection, {
        url: `http://${host}/hook`,
        events: ['PERSON_CHECKIN_ENTERED'],
      });
      expect(response.status, response.text).toBe(422);
      expect(response.body.errors?.[0]).toMatchObject({ path: 'url', message: expect.stringMatching(/not public/) });
    });
  }

  it('saves global unicast addresses, IPv4 and IPv6, and a global IPv4 inside a 6to4 or mapped address', async () => {
    for (const host of [
      '93.184.215.14',
      '[2606:4700::1111]',
      '[2002:5db8:d70e::1]',
      '[::ffff:8.8.8.8]',
      '[64:ff9b::8.8.8.8]',
    ]) {
      const created = await subscribe(setup.world.api, {
        url: `https://${host}/hook`,
        events: ['PERSON_CHECKIN_ENTERED'],
      });
      expect((await setup.world.api.delete(`${collection}/${created.subscriptionId}`)).status).toBe(204);
    }
  });
});

describe('the connection check (a name that now resolves elsewhere)', () => {
  afterEach(() => vi.restoreAllMocks());

  /** What the dispatcher's lookup answers for a name that DNS resolves to `address`. */
  function lookupWith(address: string, family: number): Promise<{ code: string | undefined; addresses: unknown }> {
    vi.spyOn(dns, 'lookup').mockImplementation(((
      _host: string,
      _options: unknown,
      callback: (error: null, addresses: dns.LookupAddress[]) => void,
    ) => {
      callback(null, [{ address, family }]);
    }) as unknown as typeof dns.lookup);
    return new Promise((resolve) => {
      guardedLookup(false)('rebound.example', { all: true }, (error, addresses) =>
        resolve({ code: error?.code, addresses }),
      );
    });
  }

  it('refuses every address that is not global unicast before any socket connects', async () => {
    for (const host of notGlobal) {
      const address = host.replace(/^\[(.*)\]$/, '$1');
      expect((await lookupWith(address, address.includes(':') ? 6 : 4)).code, address).toBe('EPRIVATEADDRESS');
    }
    expect(await lookupWith('2606:4700::1111', 6)).toEqual({
      code: undefined,
      addresses: [{ address: '2606:4700::1111', family: 6 }],
    });
  });
});
