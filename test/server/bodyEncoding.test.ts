import http from 'node:http';
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import type { PersonCheckin } from '../../shared/src/schemas/personCheckins';
import { visitor } from '../support/factories';
import { serverAndWorld } from '../support/serverAndWorld';

const setup = serverAndWorld();
const people = () => `/v1/sites/${setup.world.siteId}/checkins/people`;

/** A POST of raw bytes through node:http (fetch would not send a body it cannot label, nor bytes as they are). */
function postBytes(
  body: Buffer,
  headers: Record<string, string> = {},
): Promise<{ status: number; headers: http.IncomingHttpHeaders; json: Record<string, unknown> }> {
  return new Promise((resolve, reject) => {
    const request = http.request(
      `${setup.server.baseUrl}${people()}`,
      {
        method: 'POST',
        agent: false,
        headers: {
          Authorization: `Bearer ${setup.world.token}`,
          'Content-Type': 'application/json',
          'Content-Length': String(body.length),
          ...headers,
        },
      },
      (response) => {
        const parts: Buffer[] = [];
        response.on('data', (chunk: Buffer) => parts.push(chunk));
        response.on('end', () => {
          const text = Buffer.concat(parts).toString('utf8');
          resolve({
            status: response.statusCode ?? 0,
            headers: response.headers,
            json: JSON.parse(text) as Record<string, unknown>,
          });
        });
        response.on('error', reject);
      },
    );
    request.on('error', reject);
    request.end(body);
  });
}

async function count(): Promise<number> {
  const list = await setup.world.api.get<{ data: PersonCheckin[] }>(`${people()}?limit=200`);
  return list.body.data.length;
}

const json = (firstName: string) => Buffer.from(JSON.stringify(visitor(firstName, 'Encoded')));

describe('Content-Encoding of a request body', () => {
  it('a body the server does not decode is 415 UNSUPPORTED_MEDIA_TYPE, never read as if plain', async () => {
    const before = await count();
    const zipped = await postBytes(gzipSync(json('Zipped')), { 'Content-Encoding': 'gzip' });
    expect(zipped.status).toBe(415);
    expect(zipped.json.code).toBe('UNSUPPORTED_MEDIA_TYPE');
    expect(zipped.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect(zipped.headers['accept-encoding']).toBe('identity');
    // A plain body labelled gzip: taking it would mean the label is ignored, whatever it says.
    const mislabelled = await postBytes(json('Mislabelled'), { 'Content-Encoding': 'gzip' });
    expect(mislabelled.status).toBe(415);
    expect(mislabelled.json.code).toBe('UNSUPPORTED_MEDIA_TYPE');
    for (const coding of ['br', 'deflate', 'zstd', 'identity, gzip']) {
      expect((await postBytes(json('Other'), { 'Content-Encoding': coding })).status).toBe(415);
    }
    expect(await count()).toBe(before);
  });

  it('identity (and no Content-Encoding at all) is a plain body', async () => {
    expect((await postBytes(json('Identity'), { 'Content-Encoding': 'identity' })).status).toBe(201);
    expect((await postBytes(json('Identity'), { 'Content-Encoding': 'Identity' })).status).toBe(201);
    expect((await postBytes(json('Plain'))).status).toBe(201);
  });
});

describe('bytes that are not UTF-8', () => {
  const withName = (bytes: number[]) =>
    Buffer.concat([
      Buffer.from('{"person":{"firstName":"Ad'),
      Buffer.from(bytes),
      Buffer.from('","lastName":"Bytes"}}'),
    ]);

  const invalid: Array<[string, number[]]> = [
    ['a stray 0xFF byte', [0xff]],
    ['a lone continuation byte', [0x80]],
    ['a truncated two-byte sequence', [0xc3]],
    ['an overlong encoding of "/"', [0xc0, 0xaf]],
    ['a UTF-8 encoded surrogate (CESU-8)', [0xed, 0xa0, 0x80]],
  ];
  for (const [label, bytes] of invalid) {
    it(`refuses ${label} with 400 MALFORMED_JSON, stores nothing (not a U+FFFD in its place)`, async () => {
      const before = await count();
      const response = await postBytes(withName(bytes));
      expect(response.status).toBe(400);
      expect(response.json.code).toBe('MALFORMED_JSON');
      expect(await count()).toBe(before);
    });
  }

  it('accepts well-formed multi-byte UTF-8 as it is', async () => {
    const response = await postBytes(withName([0xc3, 0xa9, 0xf0, 0x9f, 0x98, 0x80]));
    expect(response.status).toBe(201);
    expect((response.json.person as { firstName: string }).firstName).toBe('Ad\u00e9\u{1F600}');
  });
});
