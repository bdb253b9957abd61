import { DEFAULT_LANGUAGE, isLanguage } from '../../../shared/src/messages/languages';
import type { HostDecisionPreview, HostDecisionResult } from '../../../shared/src/schemas/notifications';
import { type Executor, inTransaction, queryOne, queryRows } from '../db/query';
import { sql } from '../db/sql';
import { conflict, notFound, problem } from '../errors/problem';
import { runKeylessWrite } from '../idempotency/runWrite';
import { isStaleWrite } from '../idempotency/store';
import { type LiveDecisionLink, findDecisionLink, useDecisionLinksSql } from '../notifications/decisionLinks';
import { transitionPersonCheckin } from './checkinTransitioner';

const unknownLink = () => notFound('This link is unknown, used or expired. Ask reception, or decide in the console.');
const decidedAlready = () => conflict('NOT_PENDING', 'This visit was decided already: nothing is left to decide.');

async function liveLink(db: Executor, token: string, now: Date, lock = false): Promise<LiveDecisionLink> {
  const link = await findDecisionLink(db, token, now, lock);
  if (!link) throw unknownLink();
  if (link.status !== 'PENDING') throw decidedAlready();
  return link;
}

/** What the link's page shows before the host confirms (docs/notifications.md, Approve and Deny links). */
export async function previewHostDecision(db: Executor, token: string, now: Date): Promise<HostDecisionPreview> {
  const link = await liveLink(db, token, now);
  const row = await queryOne<{
    first_name: string;
    last_name: string;
    company: string | null;
    entry_at: Date;
    site_name: string;
    timezone: string;
    language: string;
  }>(
    db,
    sql`SELECT c.first_name, c.last_name, c.company, c.entry_at, s.name AS site_name, s.timezone, h.language
        FROM person_checkins c JOIN sites s ON s.account_id = c.account_id AND s.id = c.site_id
        JOIN hosts h ON h.account_id = c.account_id AND h.id = ${link.hostId}
        WHERE c.account_id = ${link.accountId} AND c.id = ${link.checkinId}`,
  );
  if (!row) throw unknownLink();
  return {
    action: link.action,
    hostName: link.hostName,
    visitor: { firstName: row.first_name, lastName: row.last_name, company: row.company },
    siteName: row.site_name,
    timezone: row.timezone,
    arrivedAt: row.entry_at.toISOString(),
    expiresAt: link.expiresAt.toISOString(),
    // Written only through the hosts' schema; were it anything else, the page would speak English.
    language: isLanguage(row.language) ? row.language : DEFAULT_LANGUAGE,
  };
}

const STALE_ATTEMPTS = 5;

/**
 * Decides a waiting visit by its host's link: approve (→ IN, and the host is told of the arrival like any
 * approval) or deny (→ STOP). One transaction: the link and every other link of the visit used up, the
 * check-in changed with its events, the audit entry with the host as its actor (`decidedBy.type: "host"`).
 */
export async function redeemHostDecision(
  pool: Executor,
  input: { token: string; reason?: string; now: Date; requestId: string },
): Promise<HostDecisionResult> {
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await inTransaction(pool, (tx) => decideOnce(tx, input));
    } catch (error) {
      // The visit changed between reading it and writing: decide again on the fresh row (it may now answer 409).
      if (!isStaleWrite(error)) throw error;
      if (attempt >= STALE_ATTEMPTS)
        throw problem('UNAVAILABLE', 'The visit is changing too often right now; retry shortly.', {
          headers: { 'Retry-After': '1' },
        });
    }
  }
}

async function decideOnce(
  tx: Executor,
  input: { token: string; reason?: string; now: Date; requestId: string },
): Promise<HostDecisionResult> {
  const { now } = input;
  const link = await liveLink(tx, input.token, now, true);
  const actor = { type: 'host' as const, id: link.hostId, name: link.hostName };
  const approve = link.action === 'approve';
  const { checkin, write } = await transitionPersonCheckin(tx, {
    key: { accountId: link.accountId, siteId: link.siteId, checkinId: link.checkinId },
    action: approve
      ? { event: { type: 'APPROVE' } }
      : { event: { type: 'DENY' }, ...(input.reason ? { denyReason: input.reason } : {}) },
    exitSource: 'OTHER',
    decider: { actor, byUser: false },
    now,
  });
  await runKeylessWrite(tx, write, {
    accountId: link.accountId,
    actor,
    at: now,
    requestId: input.requestId,
    action: approve ? 'checkin.approved' : 'checkin.denied',
    target: { type: 'person_checkin', id: link.checkinId },
    siteId: link.siteId,
  });
  await queryRows(tx, useDecisionLinksSql(link, now));
  return {
    checkinId: checkin.checkinId,
    status: approve ? 'IN' : 'STOP',
    decidedAt: checkin.decidedAt ?? now.toISOString(),
  };
}
