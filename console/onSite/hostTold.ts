import type { PersonCheckinAnswer } from '../../shared/src/client';
import type { NotificationAnswer } from '../../shared/src/client/hosts';
import { since } from '../components/time';

/** What the server's sender says when it has no SMTP_URL (server/src/jobs/notificationSender.ts). */
const EMAIL_OFF = 'Email is off: this server has no SMTP_URL';

const reason = (error: string | null | undefined) =>
  error === EMAIL_OFF ? 'email is off' : (error ?? 'no reason given').replace(/^Not sent: /, '');

/**
 * Whether the visit's host was told of what the visit is now (its arrival, or that it waits), in words for
 * one line of On site now or Approvals: "Host told 09:41 by email", or why not (docs/notifications.md).
 */
export function hostToldWords(
  checkin: Pick<PersonCheckinAnswer, 'hostId' | 'hostName' | 'status'>,
  notifications: readonly NotificationAnswer[] | undefined,
  timeZone?: string,
  now = new Date(),
): string | null {
  if (checkin.hostId === null) return checkin.hostName ? 'Host not told: not in the host list' : null;
  if (notifications === undefined) return null;
  const event = checkin.status === 'PENDING' ? 'waiting' : 'arrived';
  const mine = notifications.filter((item) => item.event === event);
  if (mine.length === 0) return 'Host not told: no email or chat set for them';
  const parts: string[] = [];
  const sent = mine.filter((item) => item.status === 'sent' && item.sentAt !== null);
  if (sent.length > 0) {
    const times = sent.map((item) => `${since(item.sentAt ?? '', timeZone, now)} by ${item.channel}`);
    parts.push(`Host told ${times.join(' and ')}`);
  }
  for (const item of mine.filter((candidate) => candidate.status === 'failed')) {
    parts.push(`Host not told by ${item.channel}: ${reason(item.attempts[item.attempts.length - 1]?.error)}`);
  }
  const pending = mine.filter((item) => item.status === 'pending').map((item) => item.channel);
  if (pending.length > 0) parts.push(`Telling host by ${pending.join(' and ')}…`);
  return parts.join('; ');
}
