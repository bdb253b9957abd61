import { createHash, randomBytes } from 'node:crypto';
import { type Executor, queryOne, queryRows } from '../db/query';
import { type Sql, empty, sql } from '../db/sql';

export type HostDecisionAction = 'approve' | 'deny';

/** Only this is stored: SHA-256 of the link's secret. */
export const hashDecisionToken = (token: string): Buffer => createHash('sha256').update(token).digest();

/** The page a link opens (docs/notifications.md, Approve and Deny links): the secret rides in the fragment, never sent in a request line. */
export const decisionLinkUrl = (publicUrl: string, token: string) =>
  `${publicUrl.replace(/\/+$/, '')}/console/decide#${token}`;

/**
 * Issues a waiting visitor's Approve and Deny links for their host: 256 random bits each, only their hashes
 * kept, valid until `expiresAt` (the message's 24 h) or until the visit is decided. Committed before the
 * message leaves, so a link in a message always works.
 */
export async function issueDecisionLinks(
  db: Executor,
  input: { accountId: number; siteId: number; checkinId: number; hostId: number; expiresAt: Date; now: Date },
): Promise<Record<HostDecisionAction, string>> {
  const approve = randomBytes(32).toString('base64url');
  const deny = randomBytes(32).toString('base64url');
  await queryRows(
    db,
    sql`INSERT INTO host_decision_links (token_hash, account_id, site_id, checkin_id, host_id, action, expires_at, created_at)
        SELECT hash, ${input.accountId}, ${input.siteId}, ${input.checkinId}, ${input.hostId}, action, ${input.expiresAt}, ${input.now}
        FROM unnest(${[hashDecisionToken(approve), hashDecisionToken(deny)]}::bytea[], ARRAY['approve', 'deny']) AS l(hash, action)`,
  );
  return { approve, deny };
}

/** A link that still works: unused, unexpired, of a host that still exists, for a visit that still waits. */
export interface LiveDecisionLink {
  accountId: number;
  siteId: number;
  checkinId: number;
  hostId: number;
  hostName: string;
  action: HostDecisionAction;
  expiresAt: Date;
  /** The visit's status now (a decided visit's links no longer decide). */
  status: string;
}

/** The link of `token` if it is unused, unexpired and its host exists; `lock`: FOR UPDATE, in a transaction. */
export async function findDecisionLink(
  db: Executor,
  token: string,
  now: Date,
  lock = false,
): Promise<LiveDecisionLink | undefined> {
  const row = await queryOne<{
    account_id: number;
    site_id: number;
    checkin_id: number;
    host_id: number;
    host_name: string;
    action: HostDecisionAction;
    expires_at: Date;
    status: string;
  }>(
    db,
    sql`SELECT l.account_id, l.site_id, l.checkin_id, l.host_id, h.name AS host_name, l.action, l.expires_at, c.status
        FROM host_decision_links l
        JOIN hosts h ON h.account_id = l.account_id AND h.id = l.host_id
        JOIN person_checkins c ON c.account_id = l.account_id AND c.id = l.checkin_id
        WHERE l.token_hash = ${hashDecisionToken(token)} AND l.used_at IS NULL AND l.expires_at > ${now}
        ${lock ? sql`FOR UPDATE OF l` : empty}`,
  );
  if (!row) return undefined;
  return {
    accountId: row.account_id,
    siteId: row.site_id,
    checkinId: row.checkin_id,
    hostId: row.host_id,
    hostName: row.host_name,
    action: row.action,
    expiresAt: row.expires_at,
    status: row.status,
  };
}

/** Uses up every link of the visit: one decision, whichever link made it. */
export function useDecisionLinksSql(link: Pick<LiveDecisionLink, 'accountId' | 'checkinId'>, now: Date): Sql {
  return sql`UPDATE host_decision_links SET used_at = ${now}
    WHERE account_id = ${link.accountId} AND checkin_id = ${link.checkinId} AND used_at IS NULL`;
}
