import type { InvitationStatus } from '../../../shared/src/schemas/invitations';
import type { Principal } from '../auth/principal';
import { type Executor, queryOne, queryRows } from '../db/query';
import { type Sql, empty, join, raw, sql } from '../db/sql';
import { notFound } from '../errors/problem';
import type { InvitationRow } from '../presenters/invitation';
import { siteVisibleSql } from '../policies/siteVisibility';
import { type KeysetPosition, decodeCursor, filterScope, toPage } from './cursor';

/**
 * Every column an invitation is read with: the host's name as it is now (as it was, once the host is
 * deleted), and the state of the last email of its pass, in the same statement.
 */
const INVITATION_SELECT = raw(`SELECT i.account_id, i.id, i.site_id, i.first_name, i.last_name, i.email, i.phone,
  i.company, i.host_id, COALESCE(h.name, i.host_name) AS host_name, i.purpose, i.language, i.expected_at, i.valid_from,
  i.valid_until, i.status, i.checkin_id, i.arrived_at, i.email_visitor, i.pass_jti, i.pass_kid, i.pass_token,
  i.created_by, i.created_at, (extract(epoch FROM i.expected_at) * 1000000)::bigint AS expected_us,
  (SELECT json_build_object('status', n.status, 'attempts', n.attempts, 'sentAt', n.sent_at) FROM notifications n
   WHERE n.account_id = i.account_id AND n.invitation_id = i.id ORDER BY n.id DESC LIMIT 1) AS pass_email
  FROM invitations i LEFT JOIN hosts h ON h.account_id = i.account_id AND h.id = i.host_id`);

/** One invitation on a site the principal can view, or undefined (`lock`: FOR UPDATE, inside a transaction). */
export async function findVisibleInvitation(
  db: Executor,
  principal: Principal,
  invitationId: number,
  lock = false,
): Promise<InvitationRow | undefined> {
  return queryOne<InvitationRow>(
    db,
    sql`${INVITATION_SELECT}
        WHERE i.account_id = ${principal.accountId} AND i.id = ${invitationId} AND ${siteVisibleSql(principal, sql`i.site_id`)}
        ${lock ? sql`FOR UPDATE OF i` : empty}`,
  );
}

/** One invitation of the account, whoever may see it (just written, read back). */
export async function findInvitation(
  db: Executor,
  accountId: number,
  invitationId: number,
): Promise<InvitationRow | undefined> {
  return queryOne<InvitationRow>(
    db,
    sql`${INVITATION_SELECT} WHERE i.account_id = ${accountId} AND i.id = ${invitationId}`,
  );
}

/** SQL for the statuses asked for, `expired` and `expected` told apart by `valid_until` as of `now`. */
function statusSql(statuses: readonly InvitationStatus[], now: Date): Sql {
  const each = statuses.map((status) => {
    if (status === 'expected') return sql`(i.status = 'expected' AND i.valid_until > ${now})`;
    if (status === 'expired') return sql`(i.status = 'expected' AND i.valid_until <= ${now})`;
    return sql`i.status = ${status}`;
  });
  return sql`(${join(each, ' OR ')})`;
}

export interface InvitationFilter {
  accountId: number;
  /** Undefined: every site of the account (a caller with every site). */
  siteIds: number[] | undefined;
  from?: string;
  to?: string;
  status?: InvitationStatus[];
  limit: number;
  cursor?: string;
}

/** After this cursor, in the list's order: earliest expected first, then by id. */
const afterSql = (position: KeysetPosition) =>
  sql`(i.expected_at, i.id) > ('epoch'::timestamptz + ${position.atMicros}::bigint * interval '1 microsecond', ${position.id}::bigint)`;

/**
 * A page of invitations (docs/invitations.md, The API): of the given sites, expected in [from, to), in the
 * given statuses, earliest expected first (a day's agenda), by keyset on (expected_at, id).
 */
export async function listInvitations(db: Executor, filter: InvitationFilter, now: Date) {
  const scope = filterScope('invitations', filter);
  const where: Sql[] = [sql`i.account_id = ${filter.accountId}`];
  if (filter.siteIds !== undefined) where.push(sql`i.site_id = ANY(${filter.siteIds}::int[])`);
  if (filter.from) where.push(sql`i.expected_at >= ${filter.from}::timestamptz`);
  if (filter.to) where.push(sql`i.expected_at < ${filter.to}::timestamptz`);
  if (filter.status) where.push(statusSql(filter.status, now));
  if (filter.cursor !== undefined) where.push(afterSql(decodeCursor(filter.cursor, scope)));
  const rows = await queryRows<InvitationRow>(
    db,
    sql`${INVITATION_SELECT} WHERE ${join(where, ' AND ')} ORDER BY i.expected_at, i.id LIMIT ${filter.limit + 1}`,
  );
  return {
    rows,
    page: <T>(present: (row: InvitationRow) => T) => toPage(rows, filter.limit, present, positionOf, scope),
  };
}

const positionOf = (row: InvitationRow): KeysetPosition => ({ atMicros: row.expected_us, id: row.id });

/** A site of the account the principal can view, as an invitation needs it; 404 for any other. */
export async function invitationSite(
  db: Executor,
  principal: Principal,
  siteId: number,
): Promise<{ id: number; name: string; timezone: string; archived_at: Date | null }> {
  const site = await queryOne<{ id: number; name: string; timezone: string; archived_at: Date | null }>(
    db,
    sql`SELECT s.id, s.name, s.timezone, s.archived_at FROM sites s
        WHERE s.account_id = ${principal.accountId} AND s.id = ${siteId} AND ${siteVisibleSql(principal, sql`s.id`)}`,
  );
  if (!site) throw notFound(`Site ${siteId} does not exist or is not visible to this token.`);
  return site;
}

/** The `jti` of the site's revoked passes that would still be valid: what its kiosks refuse offline. */
export async function revokedPassesOfSite(
  db: Executor,
  input: { accountId: number; siteId: number; now: Date },
): Promise<string[]> {
  const rows = await queryRows<{ jti: string }>(
    db,
    sql`SELECT jti FROM revoked_passes
        WHERE account_id = ${input.accountId} AND site_id = ${input.siteId} AND valid_until > ${input.now}
        ORDER BY jti`,
  );
  return rows.map((row) => row.jti);
}
