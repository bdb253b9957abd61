import { type Executor, queryOne } from '../db/query';
import { sql } from '../db/sql';
import { decisionLinkUrl, issueDecisionLinks } from './decisionLinks';
import { composeInvitationEmail } from './invitationEmail';
import { type VisitFacts, arrivedMessage, waitingMessage } from './messages/hostMessages';
import type { ClaimedNotification } from './queue';
import type { Composer } from './composer';

async function visitFacts(
  db: Executor,
  notification: ClaimedNotification,
): Promise<{ facts: VisitFacts; status: string } | { refusal: string }> {
  if (notification.checkin_id === null || notification.host_id === null) return { refusal: 'Not sent: no visit' };
  const row = await queryOne<{
    first_name: string;
    last_name: string;
    company: string | null;
    status: string;
    site_name: string;
    timezone: string;
    host_exists: boolean;
  }>(
    db,
    sql`SELECT c.first_name, c.last_name, c.company, c.status, s.name AS site_name, s.timezone,
          EXISTS (SELECT 1 FROM hosts h WHERE h.account_id = c.account_id AND h.id = ${notification.host_id}) AS host_exists
        FROM person_checkins c JOIN sites s ON s.account_id = c.account_id AND s.id = c.site_id
        WHERE c.account_id = ${notification.account_id} AND c.id = ${notification.checkin_id}`,
  );
  if (!row) return { refusal: 'Not sent: the visit no longer exists' };
  if (!row.host_exists) return { refusal: 'Not sent: the host was deleted' };
  return {
    status: row.status,
    facts: {
      visitor: { firstName: row.first_name, lastName: row.last_name, company: row.company },
      siteName: row.site_name,
      timezone: row.timezone,
      at: notification.event_at,
    },
  };
}

const arrived: Composer = async (notification, { db }) => {
  const read = await visitFacts(db, notification);
  if ('refusal' in read) return read;
  return { message: arrivedMessage(notification.language, read.facts) };
};

const waiting: Composer = async (notification, { db, publicUrl, now }) => {
  const read = await visitFacts(db, notification);
  if ('refusal' in read) return read;
  // Decided before the message could go (by staff, a kiosk, or the host's earlier link): nothing to ask.
  if (read.status !== 'PENDING') return { refusal: 'Not sent: the visit was decided before the host could be told' };
  const { checkin_id: checkinId, host_id: hostId } = notification;
  if (checkinId === null || hostId === null) return { refusal: 'Not sent: no visit' };
  const tokens = await issueDecisionLinks(db, {
    accountId: notification.account_id,
    siteId: notification.site_id,
    checkinId,
    hostId,
    expiresAt: new Date(notification.created_at.getTime() + 24 * 3_600_000),
    now,
  });
  return {
    message: waitingMessage(notification.language, read.facts, {
      approve: decisionLinkUrl(publicUrl, tokens.approve),
      deny: decisionLinkUrl(publicUrl, tokens.deny),
    }),
  };
};

/** One composer per event kind: a host's messages, and a visitor's invitation email. */
export const composers: Record<string, Composer> = { arrived, waiting, invitation: composeInvitationEmail };
