import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { generateToken, hashToken, isWellFormedToken } from '../../server/src/auth/tokenFormat';
import { canonicalJson, parseIdempotencyKey, requestFingerprint } from '../../server/src/idempotency/key';
import { cursorScope, decodeCursor, encodeCursor, filterScope } from '../../server/src/queries/cursor';
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
  });

  it('refuses what is not 1–255 visible ASCII', () => {
    for (const bad of ['', 'a b', 'tab\there', 'x'.repeat(256), '""', 'é', '"a"b"']) {
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
  const scope = cursorScope('things', { accountId: 1, status: ['IN'] });

  it('round-trip microsecond positions (and a sort group) exactly', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 4_102_444_800_000_000 }),
        fc.integer({ min: 1, max: 2 ** 52 }),
        fc.option(fc.integer({ min: 0, max: 3 }), { nil: undefined }),
        (atMicros, id, group) => {
          const position = group === undefined ? { atMicros, id } : { atMicros, id, group };
          expect(decodeCursor(encodeCursor(position, scope), scope)).toEqual(position);
        },
      ),
    );
  });

  it('refuse anything the API did not issue with 400 INVALID_QUERY', () => {
    const encoded = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
    for (const bad of [
      '',
      'abc',
      encoded([1]),
      encoded([1, 0, null, scope]),
      encoded({ a: 1 }),
      encoded([1, 2, -1, scope]),
      encoded([1, 2, null]),
      encoded([1, 2, 3, 4, 5]),
    ]) {
      expect(() => decodeCursor(bad, scope)).toThrow(expect.objectContaining({ code: 'INVALID_QUERY', status: 400 }));
    }
  });

  it('belong to one list with its filters: another list, or other filters, is 400 INVALID_QUERY', () => {
    const encoded = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
    const cursor = encodeCursor({ atMicros: 5, id: 7 }, scope);
    for (const other of [
      cursorScope('others', { accountId: 1, status: ['IN'] }),
      cursorScope('things', { accountId: 2, status: ['IN'] }),
      cursorScope('things', { accountId: 1, status: ['OUT'] }),
      cursorScope('things', { accountId: 1 }),
    ]) {
      expect(() => decodeCursor(cursor, other)).toThrow(
        expect.objectContaining({ code: 'INVALID_QUERY', message: expect.stringContaining('other filters') }),
      );
    }
    // Issued before cursors had a scope: taken as they are (a client paging through a deploy).
    expect(decodeCursor(encoded([5, 7]), scope)).toEqual({ atMicros: 5, id: 7 });
    expect(decodeCursor(encoded([5, 7, 1]), scope)).toEqual({ atMicros: 5, id: 7, group: 1 });
    // The page's own limit and cursor are not filters.
    expect(filterScope('things', { accountId: 1, limit: 5, cursor })).toBe(
      filterScope('things', { accountId: 1, limit: 50 }),
    );
  });
});
