import { createHash } from 'node:crypto';
import type { CheckinConfigUpdate } from '../../../shared/src/schemas/sites';
import { VISIT_KEY_PATTERN } from '../../../shared/src/schemas/visit';
import { type Executor, queryOne } from '../db/query';
import { sql } from '../db/sql';
import { notFound, problem } from '../errors/problem';
import type { StoredOutcome } from '../idempotency/store';
import type { Principal, SiteAccess } from './principal';
import { storedOf } from './resolvedSite';

/** What a visit route knows of its caller besides the site: the phone's key, and the visit it opens. */
export interface VisitCaller {
  /** The SHA-256 of the visit key the phone sent (a create stores it; an action was matched with it). */
  keyHash: Buffer | undefined;
  /** The site's setting "QR check-ins need approval". */
  requiresApproval: boolean;
}

/** The phone's visit key from `Authorization: Visit <key>`, hashed; undefined when none was sent. */
export function visitKeyHashOf(authorization: string): Buffer | undefined {
  const match = /^Visit\s+(\S+)\s*$/i.exec(authorization);
  if (!match?.[1]) return undefined;
  if (!VISIT_KEY_PATTERN.test(match[1])) throw notAVisitKey(true);
  return createHash('sha256').update(match[1]).digest();
}

const notAVisitKey = (sent: boolean) =>
  problem('UNAUTHENTICATED', 'Send the visit key this phone made: Authorization: Visit <key>.', {
    headers: { 'WWW-Authenticate': sent ? 'Visit error="invalid_token"' : 'Visit' },
  });

/**
 * Idempotency-Keys of visit routes are recorded apart from the account's own (a space can never be in a
 * key a client sends): anyone may call these routes, and must not be able to spoil an integrator's key.
 */
export const visitIdempotencyKey = (key: string) => `visit ${key}`;

/** The visitor's phone as a caller: no scopes, no site list; its writes come from the QR_CODE channel. */
export const visitorPrincipal = (accountId: number): Principal => ({
  actor: { type: 'token', id: 0, name: 'Visitor (QR code)' },
  accountId,
  scopes: new Set(),
  source: 'QR_CODE',
  allSites: false,
  tokenId: null,
  userId: null,
});

interface VisitRow {
  account_id: number;
  site_id: number;
  site_name: string;
  timezone: string;
  checkin_config: CheckinConfigUpdate;
  config_version: number;
  site_archived_at: Date | null;
  visit_requires_approval: boolean;
  visit_checkin_id: string | null;
  stored_fingerprint: string | null;
  stored_status: number | null;
  stored_body: string | null;
  stored_headers: Record<string, string> | null;
}

/** One round trip: the site of the code, the visit the key opens (if any), the Idempotency-Key's outcome. */
const siteOfCode = (input: {
  code: string;
  keyHash: Buffer | null;
  checkinId: number | null;
  key: string | null;
  since: Date | null;
}) => sql`
  SELECT s.account_id, s.id AS site_id, s.name AS site_name, s.timezone, s.checkin_config, s.config_version,
         s.archived_at AS site_archived_at, s.visit_requires_approval, v.checkin_id AS visit_checkin_id,
         k.fingerprint AS stored_fingerprint, k.status_code AS stored_status, k.body AS stored_body, k.headers AS stored_headers
  FROM sites s
  LEFT JOIN visit_keys v ON v.account_id = s.account_id AND v.site_id = s.id AND v.key_hash = ${input.keyHash}::bytea
    AND v.checkin_id = ${input.checkinId}::bigint
  LEFT JOIN idempotency_keys k ON k.account_id = s.account_id AND k.key = ${input.key}::text AND k.created_at >= ${input.since}::timestamptz
  WHERE s.visit_code = ${input.code}`;

export interface VisitAuthentication {
  principal: Principal;
  site: SiteAccess;
  stored?: StoredOutcome;
  visit: VisitCaller;
}

/**
 * Resolves a visit route's caller: the site by its code (unknown or rotated: 404) and, for a route on one
 * visit (`checkinId`), that visit by the phone's key: a key of another visit or site is a 404, the same as
 * a visit that does not exist. A write, or a read of one visit, without a key is a 401.
 */
export async function authenticateVisit(
  db: Executor,
  input: {
    code: string;
    checkinId: number | undefined;
    /** A write or a read of one visit: the phone must send its key. */
    needsKey: boolean;
    authorization: string;
    idempotency?: { key: string; since: Date };
  },
): Promise<VisitAuthentication> {
  const keyHash = visitKeyHashOf(input.authorization);
  const row = await queryOne<VisitRow>(
    db,
    siteOfCode({
      code: input.code,
      keyHash: keyHash ?? null,
      checkinId: input.checkinId ?? null,
      key: input.idempotency ? visitIdempotencyKey(input.idempotency.key) : null,
      since: input.idempotency?.since ?? null,
    }),
    { prepare: true },
  );
  if (!row) throw notFound('This visit code is not in use: ask reception.');
  if (input.needsKey && keyHash === undefined) throw notAVisitKey(false);
  if (input.checkinId !== undefined && row.visit_checkin_id === null)
    throw notFound(`Visit ${input.checkinId} is not this phone's.`);
  return {
    principal: visitorPrincipal(row.account_id),
    site: {
      siteId: row.site_id,
      name: row.site_name,
      timezone: row.timezone,
      checkinConfig: row.checkin_config,
      configVersion: row.config_version,
      archivedAt: row.site_archived_at,
    },
    stored: storedOf(row),
    visit: { keyHash, requiresApproval: row.visit_requires_approval },
  };
}
