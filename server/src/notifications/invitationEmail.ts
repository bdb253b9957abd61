import { type Executor, queryOne, queryRows } from '../db/query';
import { sql } from '../db/sql';
import { passQrPng } from '../passes/passIssuer';
import type { Composer } from './composer';
import { NOTIFICATION_LIFETIME_MS } from './enqueue';
import { invitationEmail } from './messages/invitationMessages';

/** The outbox event of a visitor's invitation email (docs/invitations.md, The email). */
export const INVITATION_EVENT = 'invitation';

/**
 * Queues the email that carries an invitation's pass to the visitor, in the transaction of the change that
 * asks for it (create, resend, a change of the pass): the notification sender sends it once, retries it
 * for a day, and records why not. The address is the visitor's as it is now; the message is made when sent,
 * in the invitation's language, else the site's default language as it is now (docs/invitations.md).
 */
export async function queueInvitationEmail(
  db: Executor,
  input: {
    accountId: number;
    siteId: number;
    invitationId: number;
    hostId: number | null;
    email: string;
    now: Date;
  },
): Promise<void> {
  const { now } = input;
  await queryRows(
    db,
    sql`INSERT INTO notifications (account_id, site_id, invitation_id, host_id, event, channel, recipient, language,
          event_at, next_attempt_at, give_up_at, created_at)
        SELECT ${input.accountId}, ${input.siteId}, ${input.invitationId}, ${input.hostId}, ${INVITATION_EVENT}, 'email',
          ${input.email}, COALESCE(i.language, s.default_language), ${now}, ${now},
          ${new Date(now.getTime() + NOTIFICATION_LIFETIME_MS)}, ${now}
        FROM invitations i JOIN sites s ON s.account_id = i.account_id AND s.id = i.site_id
        WHERE i.account_id = ${input.accountId} AND i.id = ${input.invitationId}`,
  );
}

interface InvitationMailRow {
  first_name: string;
  email: string | null;
  status: string;
  expected_at: Date;
  valid_from: Date;
  valid_until: Date;
  purpose: string | null;
  host_name: string | null;
  pass_token: string;
  created_at: Date;
  updated_at: Date;
  site_name: string;
  timezone: string;
}

const readInvitation = (db: Executor, accountId: number, invitationId: number) =>
  queryOne<InvitationMailRow>(
    db,
    sql`SELECT i.first_name, i.email, i.status, i.expected_at, i.valid_from, i.valid_until, i.purpose,
          COALESCE(h.name, i.host_name) AS host_name, i.pass_token, i.created_at, i.updated_at,
          s.name AS site_name, s.timezone
        FROM invitations i JOIN sites s ON s.account_id = i.account_id AND s.id = i.site_id
        LEFT JOIN hosts h ON h.account_id = i.account_id AND h.id = i.host_id
        WHERE i.account_id = ${accountId} AND i.id = ${invitationId}`,
  );

/**
 * Makes the visitor's email from the invitation as it is when sent: none for an invitation cancelled,
 * arrived or expired since, or whose address changed (the change queued an email to the new one).
 */
export const composeInvitationEmail: Composer = async (notification, { db, now }) => {
  if (notification.invitation_id === null) return { refusal: 'Not sent: no invitation' };
  const row = await readInvitation(db, notification.account_id, notification.invitation_id);
  if (!row) return { refusal: 'Not sent: the invitation no longer exists' };
  if (row.status === 'cancelled') return { refusal: 'Not sent: the invitation was cancelled' };
  if (row.status === 'arrived') return { refusal: 'Not sent: the visitor has arrived' };
  if (row.valid_until <= now) return { refusal: 'Not sent: the invitation has expired' };
  if (row.email?.toLowerCase() !== notification.recipient.toLowerCase())
    return { refusal: 'Not sent: the visitor’s email was changed' };
  const message = invitationEmail(
    notification.language,
    {
      accountId: notification.account_id,
      invitationId: notification.invitation_id,
      firstName: row.first_name,
      siteName: row.site_name,
      timezone: row.timezone,
      hostName: row.host_name,
      purpose: row.purpose,
      expectedAt: row.expected_at,
      validFrom: row.valid_from,
      validUntil: row.valid_until,
      updatedAt: row.updated_at,
      createdAt: row.created_at,
    },
    { token: row.pass_token, qrPng: await passQrPng(row.pass_token) },
  );
  return { message };
};
