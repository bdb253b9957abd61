import { createHash, randomBytes } from 'node:crypto';
import type { LinkInfo, LinkKind } from '../../../shared/src/schemas/staff';
import { type Executor, queryOne, queryRows } from '../db/query';
import { empty, sql } from '../db/sql';

const HOUR_MS = 60 * 60 * 1000;
/** How long a one-time link works: an invitation 72 hours, a setup or reset link 24. */
export const LINK_LIFETIME_MS: Record<LinkKind, number> = {
  setup: 24 * HOUR_MS,
  invitation: 72 * HOUR_MS,
  reset: 24 * HOUR_MS,
};

/** Only this is stored: SHA-256 of the link's code. */
const hashCode = (code: string): Buffer => createHash('sha256').update(code).digest();

/**
 * A new one-time link's code (256 random bits, base64url); for a user (invitation, reset) or an account
 * (setup). The user's (or, for setup, the account's) earlier unused links of the same kind stop working in
 * the same statement: only the newest link sent works (docs/api.md, One-time links).
 */
export async function createLink(
  db: Executor,
  input: { accountId: number; kind: LinkKind; userId: number | null; now: Date },
): Promise<string> {
  const code = randomBytes(32).toString('base64url');
  await queryRows(
    db,
    sql`WITH cancelled AS (
          UPDATE staff_links SET used_at = ${input.now}
          WHERE account_id = ${input.accountId} AND kind = ${input.kind} AND used_at IS NULL
            AND user_id IS NOT DISTINCT FROM ${input.userId}::integer)
        INSERT INTO staff_links (code_hash, account_id, kind, user_id, expires_at, created_at)
        VALUES (${hashCode(code)}, ${input.accountId}, ${input.kind}, ${input.userId}::integer,
                ${new Date(input.now.getTime() + LINK_LIFETIME_MS[input.kind])}, ${input.now})`,
  );
  return code;
}

/** A link that still works: unused and unexpired (a setup link also only while the account has no owner). */
export interface LiveLink {
  accountId: number;
  kind: LinkKind;
  userId: number | null;
  info: LinkInfo;
}

/** The link of `code` if it still works; `lock` takes it for redeeming (FOR UPDATE, in a transaction). */
export async function findLiveLink(db: Executor, code: string, now: Date, lock = false): Promise<LiveLink | undefined> {
  if (!/^[A-Za-z0-9_-]{43}$/.test(code)) return undefined;
  const row = await queryOne<{
    account_id: number;
    kind: LinkKind;
    user_id: number | null;
    email: string | null;
    name: string | null;
    account_name: string;
  }>(
    db,
    sql`SELECT l.account_id, l.kind, l.user_id, u.email, u.name, a.name AS account_name
        FROM staff_links l
        JOIN accounts a ON a.id = l.account_id
        LEFT JOIN staff_users u ON u.account_id = l.account_id AND u.id = l.user_id
        WHERE l.code_hash = ${hashCode(code)} AND l.used_at IS NULL AND l.expires_at > ${now}
          AND (l.kind <> 'setup' OR NOT EXISTS (
            SELECT 1 FROM staff_users o WHERE o.account_id = l.account_id AND o.role = 'owner' AND NOT o.disabled))
          AND (u.id IS NULL OR NOT u.disabled)
        ${lock ? sql`FOR UPDATE OF l` : empty}`,
  );
  if (!row) return undefined;
  return {
    accountId: row.account_id,
    kind: row.kind,
    userId: row.user_id,
    info: { kind: row.kind, email: row.email, name: row.name, accountName: row.account_name },
  };
}

/** Uses the link up, with every other open link of its user (a new one supersedes older ones). */
export async function useLink(db: Executor, code: string, link: LiveLink, now: Date): Promise<void> {
  await queryRows(
    db,
    sql`UPDATE staff_links SET used_at = ${now}
        WHERE used_at IS NULL AND (code_hash = ${hashCode(code)} OR (account_id = ${link.accountId} AND user_id = ${link.userId}::integer))`,
  );
}

/** The page a link opens in the console. */
export function linkUrl(base: string, kind: LinkKind, code: string): string {
  const page = kind === 'setup' ? 'setup' : 'invitation';
  return `${base.replace(/\/+$/, '')}/console/${page}?code=${code}`;
}
