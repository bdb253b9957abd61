import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { generateToken, hashToken, isWellFormedToken } from '../../server/src/auth/tokenFormat';
import { canonicalJson, parseIdempotencyKey, requestFingerprint } from '../../server/src/idempotency/key';
import { decodeCursor, encodeCursor } from '../../server/src/queries/cursor';
import { ProblemError } from '../../server/src/errors/problem';

describe('tokens', () => {
  it('look like ck_ + 36 base62 and carry a checksum that catches a changed character', () => {
    const token = generateToken();
    expect(token).toMatch(/^ck_[0-9A-Za-z]{36}$/);
    expect(isWellFormedToken(token)).toBe(true);
    const last = token.at(-1) === 'A' ? 'B' : 'A';
    expect(isWellFormedToken(token.slice(0, -1) + last)).toBe(false);
    const body = token.at(5) === 'A' ? 'B' : 'A';
    expect(isWellFormedToken(token.slice(0, 5) + body + token.slice(6))).toBe(false);
    expect(isWellFormedToken('ck_short')).toBe(false);
  });

  it('are stored as SHA-256 only', () => {
    expect(hashToken('ck_x')).toHaveLength(32);
    expect(new Set(Array.from({ length: 200 }, generateToken)).size).toBe(200);
  });
});

describe('Idempotency-Key', () => {
  it('takes bare and quoted forms as the same key', () => {
    expect(parseIdempotencyKey('abc')).toBe('abc');
    expect(parseIdempotencyKey('"abc"')).toBe('abc');
    expect(parseIdempotencyKey(undefined)).toBeUndefined();
    expect(parseIdempotencyKey('')).toBeUndefined();
  });

  it('refuses what is not 1–255 visible ASCII', () => {
    for (const bad of ['a b', 'tab\there', 'x'.repeat(256), '""', 'é', '"a"b"']) {
      expect(() => parseIdempotencyKey(bad)).toThrow(ProblemError);
    }
    expect(parseIdempotencyKey('x'.repeat(255))).toHaveLength(255);
  });

  it('fingerprints equal bodies equally whatever their key order, and differs by method, path and body', () => {
    fc.assert(
      fc.property(fc.dictionary(fc.string(), fc.jsonValue()), (object) => {
        const reversed = Object.fromEntries(Object.entries(object).reverse());
        expect(canonicalJson(reversed)).toBe(canonicalJson(object));
      }),
    );
    const base = requestFingerprint('POST', '/v1/a', { x: 1 });
    expect(requestFingerprint('POST', '/v1/a', { x: 1 })).toBe(base);
    expect(requestFingerprint('PUT', '/v1/a', { x: 1 })).not.toBe(base);
    expect(requestFingerprint('POST', '/v1/b', { x: 1 })).not.toBe(base);
    expect(requestFingerprint('POST', '/v1/a', { x: 2 })).not.toBe(base);
    expect(requestFingerprint('POST', '/v1/a', undefined)).toBe(requestFingerprint('POST', '/v1/a', {}));
    expect(requestFingerprint('POST', '/v1/a', { x: 1 }, 7)).not.toBe(base);
    expect(requestFingerprint('POST', '/v1/a', { x: 1 }, 7)).not.toBe(requestFingerprint('POST', '/v1/a', { x: 1 }, 8));
  });
});

describe('cursors', () => {
  it('round-trip microsecond positions exactly', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 4_102_444_800_000_000 }), fc.integer({ min: 1, max: 2 ** 52 }), (atMicros, id) => {
        expect(decodeCursor(encodeCursor({ atMicros, id }))).toEqual({ atMicros, id });
      }),
    );
  });

  it('refuse anything the API did not issue with 400 INVALID_QUERY', () => {
    for (const bad of ['', 'abc', Buffer.from('[1]').toString('base64url'), Buffer.from('[1,0]').toString('base64url'), Buffer.from('{"a":1}').toString('base64url')]) {
      expect(() => decodeCursor(bad)).toThrow(expect.objectContaining({ code: 'INVALID_QUERY', status: 400 }));
    }
  });
});
