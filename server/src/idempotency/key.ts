import { createHash } from 'node:crypto';
import { MAX_FUTURE_MS } from '../../../shared/src/domain/occurredAt';
import { problem } from '../errors/problem';

const VISIBLE_ASCII = /^[\x21-\x7e]{1,255}$/;

/**
 * The Idempotency-Key header, bare (`abc`) or as a quoted string (`"abc"`, the IETF draft); both are the
 * same key. Absent → undefined. Not 1–255 visible ASCII characters (an empty header included) → 400
 * (docs/api.md, Idempotency).
 */
export function parseIdempotencyKey(header: string | undefined): string | undefined {
  if (header === undefined) return undefined;
  const unquoted = header.length >= 2 && header.startsWith('"') && header.endsWith('"') ? header.slice(1, -1) : header;
  if (!VISIBLE_ASCII.test(unquoted) || (unquoted !== header && unquoted.includes('"'))) {
    throw problem('INVALID_IDEMPOTENCY_KEY', 'Idempotency-Key must be 1 to 255 visible ASCII characters.');
  }
  return unquoted;
}

/** JSON with object keys sorted at every depth, so equal bodies fingerprint equally whatever their key order. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, item]) => item !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([key, item]) => `${JSON.stringify(key)}:${canonicalJson(item)}`).join(',')}}`;
  }
  return JSON.stringify(value ?? null);
}

/**
 * What makes two requests "the same request": method, path and canonical body; and the token, when given
 * (account-level routes: what they answer depends on the caller's sites, so one token's stored answer is
 * not replayed to another).
 */
export function requestFingerprint(method: string, path: string, body: unknown, tokenId?: number | string): string {
  return createHash('sha256')
    .update(`${method} ${path}\n${canonicalJson(body ?? {})}${tokenId === undefined ? '' : `\ntoken ${tokenId}`}`)
    .digest('hex');
}

/**
 * When a key's record stops counting: `IDEMPOTENCY_TTL_HOURS` after it was stored, plus the 5 minutes an
 * `occurredAt` may lie ahead of the server's clock. A resend of a create whose `occurredAt` is still inside
 * the 7-day window therefore always finds its key (else, in those minutes, it would run a second time).
 */
export function keysSince(now: Date, ttlHours: number): Date {
  return new Date(now.getTime() - ttlHours * 3_600_000 - MAX_FUTURE_MS);
}
