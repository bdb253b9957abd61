import { invitationValidity, passSeconds, validityErrors } from '../../../shared/src/domain';
import type {
  CreateInvitationRequest,
  Invitation,
  UpdateInvitationRequest,
} from '../../../shared/src/schemas/invitations';
import type { Principal } from '../auth/principal';
import { type Executor, queryOne, queryRows } from '../db/query';
import { sql } from '../db/sql';
import { conflict, notFound, validationFailed } from '../errors/problem';
import { publishEvent } from '../live/publish';
import { queueInvitationEmail } from '../notifications/invitationEmail';
import { newPassJti, signPass } from '../passes/passIssuer';
import { currentSigningKey } from '../passes/signingKeys';
import { refuseIfArchived } from '../policies/archivedSite';
import { type InvitationRow, invitationStatus, presentInvitation } from '../presenters/invitation';
import { hostOfSite } from '../queries/hosts';
import { findInvitation, findVisibleInvitation, invitationSite } from '../queries/invitations';

/** What every invitation command gets: the caller, the time, and PASS_KEY_SECRET for the signing key. */
export interface InvitationContext {
  principal: Principal;
  now: Date;
  secret: string | undefined;
}

/** The host an invitation names, if it is one of the site's; else 422 at `hostId`. */
async function siteHost(db: Executor, accountId: number, siteId: number, hostId: number) {
  const host = await hostOfSite(db, { accountId, siteId, hostId });
  if (!host) throw validationFailed([{ path: 'hostId', message: `Host ${hostId} is not a host of this site` }]);
  return host;
}

/** A new pass for the invitation as it now reads: a new `jti`, signed by the account's current key. */
async function issuePass(
  db: Executor,
  ctx: InvitationContext,
  pass: {
    invitationId: number;
    siteId: number;
    firstName: string;
    lastName: string;
    validFrom: Date;
    validUntil: Date;
  },
): Promise<{ jti: string; kid: string; token: string }> {
  const key = await currentSigningKey(db, { accountId: ctx.principal.accountId, now: ctx.now, secret: ctx.secret });
  const jti = newPassJti();
  const token = await signPass(key, {
    acct: ctx.principal.accountId,
    inv: pass.invitationId,
    site: pass.siteId,
    firstName: pass.firstName,
    lastName: pass.lastName,
    nbf: passSeconds(pass.validFrom),
    exp: passSeconds(pass.validUntil),
    jti,
  });
  return { jti, kid: key.kid, token };
}

/**
 * The invitation as it now reads, and its event for the consoles' Expected pages (docs/api.md, Event
 * stream), in the command's transaction: every create and change of an invitation comes through here.
 */
const rereadAndPublish = async (db: Executor, ctx: InvitationContext, invitationId: number): Promise<Invitation> => {
  const row = await findInvitation(db, ctx.principal.accountId, invitationId);
  if (!row) throw new Error(`invitation ${invitationId} vanished`);
  const invitation = presentInvitation(row, ctx.now);
  await publishEvent(db, {
    accountId: ctx.principal.accountId,
    siteId: invitation.siteId,
    type: 'invitation',
    data: { siteId: invitation.siteId, invitationId, status: invitation.status },
  });
  return invitation;
};

/**
 * Invites a visitor (docs/invitations.md): the invitation, its signed pass, and (when the visitor has an
 * email and `sendEmail` is not false) the email that carries the pass, in one transaction.
 */
export async function createInvitation(
  db: Executor,
  ctx: InvitationContext,
  request: CreateInvitationRequest,
): Promise<Invitation> {
  const { principal, now } = ctx;
  const site = await invitationSite(db, principal, request.siteId);
  refuseIfArchived({ siteId: site.id, archivedAt: site.archived_at });
  const host =
    request.hostId === undefined ? undefined : await siteHost(db, principal.accountId, site.id, request.hostId);
  const expectedAt = new Date(request.expectedAt);
  const validity = invitationValidity({
    expectedAt,
    validFrom: request.validFrom ? new Date(request.validFrom) : undefined,
    validUntil: request.validUntil ? new Date(request.validUntil) : undefined,
    timezone: site.timezone,
  });
  const errors = validityErrors({ expectedAt, ...validity }, now);
  if (errors.length > 0) throw validationFailed(errors);
  const next = await queryOne<{ id: number }>(
    db,
    sql`SELECT nextval(pg_get_serial_sequence('invitations', 'id')) AS id`,
  );
  if (!next) throw new Error('no invitation id');
  const { person } = request;
  const pass = await issuePass(db, ctx, { invitationId: next.id, siteId: site.id, ...person, ...validity });
  const emailVisitor = request.sendEmail !== false;
  await queryRows(
    db,
    sql`INSERT INTO invitations (account_id, id, site_id, first_name, last_name, email, phone, company, host_id, host_name,
          purpose, language, expected_at, valid_from, valid_until, email_visitor, pass_jti, pass_kid, pass_token,
          created_by, created_at, updated_at)
        VALUES (${principal.accountId}, ${next.id}, ${site.id}, ${person.firstName}, ${person.lastName},
          ${person.email ?? null}, ${person.phone ?? null}, ${person.company || null}, ${host?.id ?? null},
          ${host?.name ?? null}, ${request.purpose || null}, ${request.language ?? null}, ${expectedAt},
          ${validity.validFrom}, ${validity.validUntil},
          ${emailVisitor}, ${pass.jti}, ${pass.kid}, ${pass.token}, ${JSON.stringify(principal.actor)}::jsonb, ${now}, ${now})`,
  );
  if (emailVisitor && person.email) {
    await queueInvitationEmail(db, {
      accountId: principal.accountId,
      siteId: site.id,
      invitationId: next.id,
      hostId: host?.id ?? null,
      email: person.email,
      now,
    });
  }
  return rereadAndPublish(db, ctx, next.id);
}

/** The invitation, locked for a change; 404 when the caller cannot see it. */
async function lockedInvitation(db: Executor, ctx: InvitationContext, invitationId: number): Promise<InvitationRow> {
  const row = await findVisibleInvitation(db, ctx.principal, invitationId, true);
  if (!row) throw notFound(`Invitation ${invitationId} does not exist.`);
  return row;
}

/** 409 INVITATION_CLOSED unless the invitation is in one of `allowed` states (the invitation as `current`). */
function requireStatus(row: InvitationRow, ctx: InvitationContext, allowed: readonly string[], doing: string): void {
  const status = invitationStatus(row, ctx.now);
  if (allowed.includes(status)) return;
  throw conflict('INVITATION_CLOSED', `Invitation ${row.id} is ${status}: ${doing}.`, presentInvitation(row, ctx.now));
}

/** Revokes a pass that would still be valid: its site's kiosks refuse it from their next pull (docs/invitations.md). */
async function revokePass(db: Executor, row: InvitationRow, now: Date): Promise<void> {
  await queryRows(
    db,
    sql`INSERT INTO revoked_passes (account_id, jti, site_id, invitation_id, valid_until, revoked_at)
        VALUES (${row.account_id}, ${row.pass_jti}, ${row.site_id}, ${row.id}, ${row.valid_until}, ${now})
        ON CONFLICT DO NOTHING`,
  );
}

const queueFor = (db: Executor, row: InvitationRow, email: string, hostId: number | null, now: Date) =>
  queueInvitationEmail(db, {
    accountId: row.account_id,
    siteId: row.site_id,
    invitationId: row.id,
    hostId,
    email,
    now,
  });

/**
 * Changes an expected (or expired) invitation: the fields sent; `null` clears an optional one. A change of
 * what the pass says (the name, the validity) makes a new pass and revokes the old one; the visitor is sent
 * the new one (or sent it at a changed address) when the invitation emails the visitor.
 */
export async function updateInvitation(
  db: Executor,
  ctx: InvitationContext,
  input: { invitationId: number; request: UpdateInvitationRequest },
): Promise<Invitation> {
  return (await changeInvitation(db, ctx, input)).invitation;
}

/**
 * `updateInvitation`, saying whether anything changed: a request that leaves every field as it is writes
 * nothing, issues no pass and publishes no event (a re-imported file: docs/invitations.md, Importing).
 */
export async function changeInvitation(
  db: Executor,
  ctx: InvitationContext,
  input: { invitationId: number; request: UpdateInvitationRequest },
): Promise<{ invitation: Invitation; changed: boolean }> {
  const { request, invitationId } = input;
  const row = await lockedInvitation(db, ctx, invitationId);
  requireStatus(row, ctx, ['expected', 'expired'], 'only an expected invitation can be changed');
  const site = await invitationSite(db, ctx.principal, row.site_id);
  const pick = <T>(sent: T | undefined, kept: T) => (sent === undefined ? kept : sent);
  const person = request.person ?? {};
  const firstName = pick(person.firstName, row.first_name);
  const lastName = pick(person.lastName, row.last_name);
  const email = pick(person.email, row.email);
  const hostId = pick(request.hostId, row.host_id);
  const host = hostId === null ? null : await siteHost(db, ctx.principal.accountId, row.site_id, hostId);
  const expectedAt = request.expectedAt ? new Date(request.expectedAt) : row.expected_at;
  const timesSent =
    request.expectedAt !== undefined || request.validFrom !== undefined || request.validUntil !== undefined;
  // A new expected time alone moves the validity to its day; validity sent is kept as sent.
  const validity = timesSent
    ? invitationValidity({
        expectedAt,
        validFrom: request.validFrom ? new Date(request.validFrom) : request.expectedAt ? undefined : row.valid_from,
        validUntil: request.validUntil
          ? new Date(request.validUntil)
          : request.expectedAt
            ? undefined
            : row.valid_until,
        timezone: site.timezone,
      })
    : { validFrom: row.valid_from, validUntil: row.valid_until };
  if (timesSent) {
    const errors = validityErrors({ expectedAt, ...validity }, ctx.now);
    if (errors.length > 0) throw validationFailed(errors);
  }
  const passChanged =
    firstName !== row.first_name ||
    lastName !== row.last_name ||
    validity.validFrom.getTime() !== row.valid_from.getTime() ||
    validity.validUntil.getTime() !== row.valid_until.getTime();
  const phone = pick(person.phone, row.phone);
  const company = pick(person.company, row.company) || null;
  const purpose = pick(request.purpose, row.purpose) || null;
  const language = pick(request.language, row.language);
  const unchanged =
    !passChanged &&
    email === row.email &&
    phone === row.phone &&
    company === row.company &&
    (host?.id ?? null) === row.host_id &&
    purpose === row.purpose &&
    language === row.language &&
    expectedAt.getTime() === row.expected_at.getTime();
  if (unchanged) return { invitation: presentInvitation(row, ctx.now), changed: false };
  const pass = passChanged
    ? await issuePass(db, ctx, { invitationId, siteId: row.site_id, firstName, lastName, ...validity })
    : { jti: row.pass_jti, kid: row.pass_kid, token: row.pass_token };
  if (passChanged) await revokePass(db, row, ctx.now);
  await queryRows(
    db,
    sql`UPDATE invitations SET first_name = ${firstName}, last_name = ${lastName}, email = ${email},
          phone = ${phone}, company = ${company},
          host_id = ${host?.id ?? null}, host_name = ${host?.name ?? null},
          purpose = ${purpose}, language = ${language},
          expected_at = ${expectedAt},
          valid_from = ${validity.validFrom}, valid_until = ${validity.validUntil}, pass_jti = ${pass.jti},
          pass_kid = ${pass.kid}, pass_token = ${pass.token}, updated_at = ${ctx.now}
        WHERE account_id = ${row.account_id} AND id = ${invitationId}`,
  );
  const emailChanged = (email ?? '').toLowerCase() !== (row.email ?? '').toLowerCase();
  if (row.email_visitor && email && (passChanged || emailChanged))
    await queueFor(db, row, email, host?.id ?? null, ctx.now);
  return { invitation: await rereadAndPublish(db, ctx, invitationId), changed: true };
}

/** Cancels an expected invitation: its pass is revoked (kiosks refuse it once they pull, the server at once). */
export async function cancelInvitation(
  db: Executor,
  ctx: InvitationContext,
  invitationId: number,
): Promise<Invitation> {
  const row = await lockedInvitation(db, ctx, invitationId);
  requireStatus(row, ctx, ['expected', 'expired'], 'only an expected invitation can be cancelled');
  await revokePass(db, row, ctx.now);
  await queryRows(
    db,
    sql`UPDATE invitations SET status = 'cancelled', cancelled_at = ${ctx.now}, updated_at = ${ctx.now}
        WHERE account_id = ${row.account_id} AND id = ${invitationId}`,
  );
  return rereadAndPublish(db, ctx, invitationId);
}

/** Sends the pass to the visitor again (the same pass: it stays valid); 409 NO_EMAIL without an address. */
export async function resendInvitation(
  db: Executor,
  ctx: InvitationContext,
  invitationId: number,
): Promise<Invitation> {
  const row = await lockedInvitation(db, ctx, invitationId);
  requireStatus(row, ctx, ['expected'], 'its pass cannot be sent');
  if (!row.email)
    throw conflict(
      'NO_EMAIL',
      `Invitation ${invitationId} has no email to send the pass to.`,
      presentInvitation(row, ctx.now),
    );
  await queueFor(db, row, row.email, row.host_id, ctx.now);
  return rereadAndPublish(db, ctx, invitationId);
}

/** The invitation's pass, for integrators who deliver it themselves: only while it can be used. */
export async function passOf(db: Executor, ctx: InvitationContext, invitationId: number): Promise<InvitationRow> {
  const row = await findVisibleInvitation(db, ctx.principal, invitationId);
  if (!row) throw notFound(`Invitation ${invitationId} does not exist.`);
  requireStatus(row, ctx, ['expected'], 'its pass can no longer be used');
  return row;
}
