import { passAtArrival, siteDate } from '../../../shared/src/domain';
import { checkPassSignature } from '../../../shared/src/passes/passSignature';
import type { PassJwk } from '../../../shared/src/schemas/invitations';
import type { CreateCheckinRequest } from '../../../shared/src/schemas/personCheckins';
import type { Actor } from '../../../shared/src/schemas/staff';
import type { SiteAccess } from '../auth/principal';
import { type Executor, queryOne, queryRows } from '../db/query';
import { type Sql, empty, sql } from '../db/sql';
import { validationFailed } from '../errors/problem';
import { publishEventCte } from '../live/publish';
import { siteTime } from '../notifications/messages/hostMessages';

/** What a create's pass says about its check-in (docs/invitations.md, Single use). */
export type PassArrival =
  { kind: 'admit'; invitation: ArrivingInvitation } | { kind: 'hold'; invitation: ArrivingInvitation; reason: string };

/** The invitation a genuine pass names, as a check-in takes it. */
export interface ArrivingInvitation {
  id: number;
  jti: string;
  first_name: string;
  last_name: string;
  email: string | null;
  phone: string | null;
  company: string | null;
  host_id: number | null;
  purpose: string | null;
  status: 'expected' | 'arrived' | 'cancelled';
  pass_jti: string;
  valid_from: Date;
  valid_until: Date;
  arrived_at: Date | null;
  created_by: Actor;
}

const refused = (message: string) =>
  validationFailed([{ path: 'pass', message }], 'The pass is not one this site can take.');

/** "at 09:12" the same day at the site, else "on Tue 24 Nov, 09:12 CET". */
function whenAtSite(at: Date, reference: Date, timezone: string): string {
  if (siteDate(at, timezone) !== siteDate(reference, timezone)) return `on ${siteTime(at, timezone, 'en-GB')}`;
  const time = new Intl.DateTimeFormat('en-GB', {
    timeZone: timezone,
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
  });
  return `at ${time.format(at)}`;
}

/**
 * Reads a create's pass (docs/invitations.md, Single use): 422 at `pass` unless it is genuine (signed by a
 * key of the account, any key it ever had: an offline kiosk may send it late) and of this site; then whether
 * its use at `at` (the entry time) admits the visitor or is held for reception, and why, in the site's time.
 */
export async function passAtCreate(
  db: Executor,
  input: { accountId: number; site: SiteAccess; token: string; at: Date },
): Promise<PassArrival> {
  const keys = await queryRows<{ public_jwk: PassJwk }>(
    db,
    sql`SELECT public_jwk FROM pass_signing_keys WHERE account_id = ${input.accountId}`,
  );
  const signature = await checkPassSignature(
    input.token,
    keys.map((key) => key.public_jwk),
  );
  if (!signature.ok) {
    if (signature.problem === 'notAPass') throw refused('This is not a Gatehouse pass');
    if (signature.problem === 'forged') throw refused('The pass does not match its signature: it was altered');
    throw refused('The pass was not signed by this account');
  }
  const { claims } = signature;
  if (claims.acct !== input.accountId) throw refused('The pass was not signed by this account');
  if (claims.site !== input.site.siteId) throw refused('The pass is for another site');
  const invitation = await queryOne<Omit<ArrivingInvitation, 'jti'>>(
    db,
    sql`SELECT id, first_name, last_name, email, phone, company, host_id, purpose, status, pass_jti, valid_from,
          valid_until, arrived_at, created_by
        FROM invitations WHERE account_id = ${input.accountId} AND id = ${claims.inv} AND site_id = ${claims.site}`,
  );
  if (!invitation) throw refused('The invitation of this pass no longer exists');
  const arriving: ArrivingInvitation = { ...invitation, jti: claims.jti };
  const verdict = passAtArrival(
    {
      status: invitation.status,
      passJti: invitation.pass_jti,
      validFrom: invitation.valid_from,
      validUntil: invitation.valid_until,
      arrivedAt: invitation.arrived_at,
    },
    claims.jti,
    input.at,
  );
  if (verdict.kind === 'admit') return { kind: 'admit', invitation: arriving };
  const { timezone } = input.site;
  const reasons = {
    used: `Pass already used ${whenAtSite(invitation.arrived_at ?? input.at, input.at, timezone)}`,
    cancelled: 'Pass of a cancelled invitation',
    replaced: 'Pass replaced by a newer one (the invitation was changed)',
    notYetValid: `Pass not valid until ${siteTime(invitation.valid_from, timezone, 'en-GB')}`,
    expired: `Pass expired ${whenAtSite(invitation.valid_until, input.at, timezone)}`,
  };
  return { kind: 'hold', invitation: arriving, reason: reasons[verdict.reason] };
}

/**
 * The create's body with what it leaves out taken from the invitation (names, email, phone, company, host,
 * purpose): the visitor confirms at the kiosk only what the pass did not say.
 */
export function withInvitation(request: CreateCheckinRequest, invitation: ArrivingInvitation): CreateCheckinRequest {
  const { person } = request;
  const or = <T>(sent: T | undefined, kept: T | null) =>
    sent === undefined || sent === '' ? (kept ?? undefined) : sent;
  return {
    ...request,
    person: {
      firstName: or(person.firstName, invitation.first_name),
      lastName: or(person.lastName, invitation.last_name),
      email: or(person.email, invitation.email),
      phone: or(person.phone, invitation.phone),
      company: or(person.company, invitation.company),
    },
    hostId: request.hostId ?? (request.hostName ? undefined : (invitation.host_id ?? undefined)),
    purpose: or(request.purpose, invitation.purpose),
  };
}

/**
 * CTEs of the create's statement for its pass (start with their comma): the first use marks the invitation
 * arrived (only while it is still expected with this very pass: `arrived` is then what tells the create
 * applied; a racing use of the same pass finds it arrived and is planned again, as held) and publishes its
 * `invitation` event for the consoles' Expected pages; a held use raises the pass alert of its check-in.
 */
export function passCtes(
  arrival: PassArrival | undefined,
  row: { account_id: number; site_id: number; id: number; entry_at: Date; pending_reason: string | null },
  now: Date,
  created: Sql,
): { ctes: Sql; applied: Sql } {
  if (!arrival) return { ctes: empty, applied: created };
  if (arrival.kind === 'admit') {
    return {
      ctes: sql`,
  arrived AS (
    UPDATE invitations SET status = 'arrived', checkin_id = ${row.id}::bigint, arrived_at = ${row.entry_at}::timestamptz,
      updated_at = ${now}::timestamptz
    WHERE account_id = ${row.account_id}::integer AND id = ${arrival.invitation.id}::bigint AND status = 'expected'
      AND pass_jti = ${arrival.invitation.jti} AND ${created}
    RETURNING id),
  ${publishEventCte(
    [
      {
        accountId: row.account_id,
        siteId: row.site_id,
        type: 'invitation',
        data: { siteId: row.site_id, invitationId: arrival.invitation.id, status: 'arrived' },
      },
    ],
    sql`EXISTS (SELECT 1 FROM arrived)`,
  )}`,
      applied: sql`(${created} AND EXISTS (SELECT 1 FROM arrived))`,
    };
  }
  return {
    ctes: sql`,
  pass_alert AS (
    INSERT INTO raised_alerts (account_id, site_id, kind, at, checkin_id, reason)
    SELECT ${row.account_id}::integer, ${row.site_id}::integer, 'pass', ${now}::timestamptz, id, ${arrival.reason}
    FROM checkin WHERE ${row.pending_reason !== null}::boolean)`,
    applied: created,
  };
}
