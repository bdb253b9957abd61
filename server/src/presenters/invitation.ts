import type { Language } from '../../../shared/src/messages/languages';
import type { Invitation, InvitationStatus } from '../../../shared/src/schemas/invitations';
import type { Actor } from '../../../shared/src/schemas/staff';

/** The last email of the pass, as the notification outbox has it. */
export interface PassEmailRow {
  status: 'pending' | 'sent' | 'failed';
  attempts: Array<{ at: string; error: string | null }>;
  sentAt: string | null;
}

/** An invitation as stored, with its host's name and its last email. */
export interface InvitationRow {
  account_id: number;
  id: number;
  site_id: number;
  first_name: string;
  last_name: string;
  email: string | null;
  phone: string | null;
  company: string | null;
  host_id: number | null;
  host_name: string | null;
  purpose: string | null;
  language: Language | null;
  expected_at: Date;
  valid_from: Date;
  valid_until: Date;
  status: 'expected' | 'arrived' | 'cancelled';
  checkin_id: number | null;
  arrived_at: Date | null;
  email_visitor: boolean;
  pass_jti: string;
  pass_kid: string;
  pass_token: string;
  created_by: Actor;
  created_at: Date;
  /** `expected_at` in microseconds: what cursors are made of. */
  expected_us: number;
  pass_email: PassEmailRow | null;
}

/** An expected invitation whose validity is over reads as `expired` (never stored). */
export const invitationStatus = (row: Pick<InvitationRow, 'status' | 'valid_until'>, now: Date): InvitationStatus =>
  row.status === 'expected' && row.valid_until <= now ? 'expired' : row.status;

function presentPassEmail(row: PassEmailRow | null): Invitation['passEmail'] {
  if (!row) return null;
  const last = row.attempts[row.attempts.length - 1];
  return {
    status: row.status,
    at: row.sentAt ? new Date(row.sentAt).toISOString() : last ? new Date(last.at).toISOString() : null,
    error: row.status === 'sent' ? null : (last?.error ?? null),
  };
}

/** The API shape of an invitation, field by field (never its pass: that is `GET …/pass`). */
export function presentInvitation(row: InvitationRow, now: Date): Invitation {
  return {
    invitationId: row.id,
    siteId: row.site_id,
    person: {
      firstName: row.first_name,
      lastName: row.last_name,
      email: row.email,
      phone: row.phone,
      company: row.company,
    },
    hostId: row.host_id,
    hostName: row.host_name,
    purpose: row.purpose,
    language: row.language,
    expectedAt: row.expected_at.toISOString(),
    validFrom: row.valid_from.toISOString(),
    validUntil: row.valid_until.toISOString(),
    status: invitationStatus(row, now),
    checkinId: row.checkin_id,
    arrivedAt: row.arrived_at ? row.arrived_at.toISOString() : null,
    createdBy: row.created_by,
    createdAt: row.created_at.toISOString(),
    passEmail: presentPassEmail(row.pass_email),
  };
}
