import type { VisitCheckin, VisitCheckinRequest } from '../../../shared/src/schemas/visit';
import type { Principal, SiteAccess } from '../auth/principal';
import type { VisitCaller } from '../auth/visitAuth';
import { deciderOf } from '../auth/decider';
import { findCheckin } from '../db/personCheckinRows';
import { type Executor, queryOne } from '../db/query';
import { sql } from '../db/sql';
import { ProblemError, conflict, notFound, problem } from '../errors/problem';
import { runGuardedWrite } from '../idempotency/store';
import { presentPersonCheckin } from '../presenters/personCheckin';
import { presentVisitCheckin } from '../presenters/visitCheckin';
import { checkVisitCheckinLimit, countVisitCheckinCte } from '../rateLimit/visitCheckinLimit';
import type { GuardedWrite } from '../reply';
import { createPersonCheckin } from './checkinCreator';
import { type PersonAction, transitionPersonCheckin } from './checkinTransitioner';

const CREATED = sql`EXISTS (SELECT 1 FROM checkin)`;

/**
 * A check-in from a visitor's phone (docs/api.md, The visitor's phone): the create every channel uses
 * (form, watchlist, approval, host notifications), PENDING when the site's QR check-ins need approval, and
 * counted for the caller's address; the phone's key (its hash) is kept with it. Runs in the route's
 * transaction, so the count, the check-in and its Idempotency-Key record commit together or not at all.
 */
export async function createVisitCheckin(
  db: Executor,
  input: {
    principal: Principal;
    site: SiteAccess;
    visit: VisitCaller & { keyHash: Buffer };
    request: VisitCheckinRequest;
    address: string;
    limit: number;
    now: Date;
  },
): Promise<VisitCheckin> {
  const { principal, site, now } = input;
  const counted = { accountId: principal.accountId, siteId: site.siteId, address: input.address };
  await checkVisitCheckinLimit(db, { ...counted, limit: input.limit, now });
  await checkKeyUnused(db, { ...counted, keyHash: input.visit.keyHash });
  const approval = site.checkinConfig.requiresApproval || input.visit.requiresApproval;
  const { checkin, write } = await createPersonCheckin(db, {
    principal,
    site: { ...site, checkinConfig: { ...site.checkinConfig, requiresApproval: approval } },
    request: input.request,
    now,
  });
  const keyed: GuardedWrite = {
    ...write,
    ctes: (guard) => sql`${write.ctes(guard)},
  visit_key AS (
    INSERT INTO visit_keys (account_id, checkin_id, site_id, key_hash, created_at)
    SELECT ${principal.accountId}::integer, id, ${site.siteId}::integer, ${input.visit.keyHash}::bytea, ${now}::timestamptz
    FROM checkin),
  ${countVisitCheckinCte({ ...counted, now }, CREATED)}`,
  };
  await runGuardedWrite(db, keyed);
  return presentVisitCheckin(checkin, site.name);
}

/**
 * A visit key opens one visit: a phone makes a new key for each check-in (a resend of the same check-in is
 * answered from its Idempotency-Key before this runs). Checked after the address's lock, so two check-ins
 * sent at once from one phone take turns and the second is refused here, not by the unique index.
 */
async function checkKeyUnused(db: Executor, input: { accountId: number; siteId: number; keyHash: Buffer }) {
  const used = await queryOne<{ checkin_id: string }>(
    db,
    sql`SELECT checkin_id FROM visit_keys
        WHERE account_id = ${input.accountId} AND site_id = ${input.siteId} AND key_hash = ${input.keyHash}::bytea`,
  );
  if (used)
    throw problem('VALIDATION_FAILED', 'This visit key opened a visit already: make a new key for a new check-in.');
}

/** The phone's own visit, as it sees it. */
export async function readVisitCheckin(
  db: Executor,
  input: { accountId: number; site: SiteAccess; checkinId: number },
): Promise<VisitCheckin> {
  const row = await findCheckin(db, {
    accountId: input.accountId,
    siteId: input.site.siteId,
    checkinId: input.checkinId,
  });
  if (!row) throw notFound(`Visit ${input.checkinId} does not exist.`);
  return presentVisitCheckin(presentPersonCheckin(row), input.site.name);
}

/**
 * A break or the checkout, from the visit's own phone, through the same state change as every channel.
 * A refused visitor (STOP) can do nothing from the phone (reception sees them); a refusal's `current` is
 * the visit as the phone sees it, never the whole record.
 */
export async function changeVisitCheckin(
  db: Executor,
  input: { principal: Principal; site: SiteAccess; checkinId: number; action: PersonAction; now: Date },
): Promise<{ checkin: VisitCheckin; write: GuardedWrite }> {
  const { principal, site } = input;
  const key = { accountId: principal.accountId, siteId: site.siteId, checkinId: input.checkinId };
  const current = await readVisitCheckin(db, { accountId: principal.accountId, site, checkinId: input.checkinId });
  if (current.status === 'STOP') throw conflict('CHECKIN_NOT_ADMITTED', 'Please see reception.', current);
  try {
    const { checkin, write } = await transitionPersonCheckin(db, {
      key,
      action: input.action,
      exitSource: 'QR_CODE',
      decider: deciderOf(principal),
      now: input.now,
    });
    return { checkin: presentVisitCheckin(checkin, site.name), write };
  } catch (error) {
    if (error instanceof ProblemError && error.extras.current !== undefined)
      throw conflict(error.code, error.detail, current);
    throw error;
  }
}
