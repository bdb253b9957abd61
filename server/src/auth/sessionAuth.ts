import { grantsScope } from '../../../shared/src/schemas/admin';
import type { Role } from '../../../shared/src/schemas/staff';
import { roleScopes } from '../../../shared/src/schemas/staff';
import { type Executor, queryOne, queryRows } from '../db/query';
import { raw, sql } from '../db/sql';
import { notFound, problem } from '../errors/problem';
import { siteVisibleSql } from '../policies/siteVisibility';
import type { Authentication, AuthenticationInput } from './authenticate';
import { missingScope } from './authenticate';
import type { Principal } from './principal';
import { type SiteAndKeyColumns, siteOfRow, storedOf } from './resolvedSite';
import { SESSION_ABSOLUTE_MS, SESSION_IDLE_MS, hashSessionId, isWellFormedSessionId } from './sessions';

interface SessionRow extends SiteAndKeyColumns {
  account_id: number;
  user_id: number;
  name: string;
  role: Role;
  all_sites: boolean;
  disabled: boolean;
  created_at: Date;
  last_seen_at: Date;
}

/** The user's sites: an owner's are all; anyone else's, their list or all (resolved here, per request). */
export const userAllSitesSql = (user: string) => raw(`(${user}.all_sites OR ${user}.role = 'owner')`);

/** One round trip, as for a token: the session's user, the path's site if visible, the key's outcome. */
const sessionAndSite = (input: {
  idHash: Buffer;
  siteId: number | null;
  key: string | null;
  since: Date | null;
}) => sql`
  SELECT u.account_id, u.id AS user_id, u.name, u.role, ${userAllSitesSql('u')} AS all_sites, u.disabled,
         ss.created_at, ss.last_seen_at,
         s.id AS site_id, s.name AS site_name, s.timezone, s.checkin_config, s.config_version, s.archived_at AS site_archived_at,
         k.fingerprint AS stored_fingerprint, k.status_code AS stored_status, k.body AS stored_body, k.headers AS stored_headers
  FROM staff_sessions ss
  JOIN staff_users u ON u.account_id = ss.account_id AND u.id = ss.user_id
  LEFT JOIN sites s ON s.account_id = u.account_id AND s.id = ${input.siteId}::integer
    AND ${siteVisibleSql({ accountId: sql`u.account_id`, tokenId: null, userId: sql`u.id`, allSites: userAllSitesSql('u') }, sql`s.id`)}
  LEFT JOIN idempotency_keys k ON k.account_id = u.account_id AND k.key = ${input.key}::text AND k.created_at >= ${input.since}::timestamptz
  WHERE ss.id_hash = ${input.idHash}`;

/** How often a session's last-seen time is written: idle expiry is counted in hours. */
const LAST_SEEN_RESOLUTION_MS = 60_000;

const noSession = () => problem('UNAUTHENTICATED', 'Sign in first (the session is missing, expired or ended).');

/** A staff user's session, from its cookie: 401 when unknown, expired (idle or absolute), or its user disabled. */
export async function authenticateSession(
  db: Executor,
  input: AuthenticationInput & { sessionId: string },
): Promise<Authentication> {
  if (!isWellFormedSessionId(input.sessionId)) throw noSession();
  const idHash = hashSessionId(input.sessionId);
  const row = await queryOne<SessionRow>(
    db,
    sessionAndSite({
      idHash,
      siteId: input.siteId ?? null,
      key: input.idempotency?.key ?? null,
      since: input.idempotency?.since ?? null,
    }),
    { prepare: true },
  );
  const now = input.now.getTime();
  if (!row || row.disabled) throw noSession();
  if (now - row.last_seen_at.getTime() >= SESSION_IDLE_MS || now - row.created_at.getTime() >= SESSION_ABSOLUTE_MS) {
    await queryRows(db, sql`DELETE FROM staff_sessions WHERE id_hash = ${idHash}`);
    throw noSession();
  }
  if (now - row.last_seen_at.getTime() > LAST_SEEN_RESOLUTION_MS) {
    // Awaited (at most once a minute per session): the idle clock must have restarted before the next request.
    await queryRows(db, sql`UPDATE staff_sessions SET last_seen_at = ${input.now} WHERE id_hash = ${idHash}`);
  }
  const principal: Principal = {
    actor: { type: 'user', id: row.user_id, name: row.name },
    accountId: row.account_id,
    scopes: new Set(roleScopes[row.role]),
    source: 'MANUAL',
    allSites: row.all_sites,
    tokenId: null,
    userId: row.user_id,
    session: { idHash },
  };
  if (input.scope && !grantsScope(principal.scopes, input.scope))
    return { principal, refusal: missingScope(input.scope, 'user') };
  const stored = storedOf(row);
  if (input.siteId === undefined) return { principal, stored };
  const site = siteOfRow(row);
  if (!site)
    return { principal, refusal: notFound(`Site ${input.siteId} does not exist or is not visible to this user.`) };
  return { principal, stored, site };
}
