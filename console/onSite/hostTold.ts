import type { PersonCheckinAnswer } from '../../shared/src/client';
import type { NotificationAnswer } from '../../shared/src/client/hosts';
import { since } from '../components/time';
import type { ConsoleWords } from '../language/consoleWords';

/** What the server's sender says when it has no SMTP_URL (server/src/jobs/notificationSender.ts). */
const EMAIL_OFF = 'Email is off: this server has no SMTP_URL';

// Why a message failed: the server's words (English, as it logged them) but for the one it gives when email is off.
const reason = (words: ConsoleWords, error: string | null | undefined) =>
  error === EMAIL_OFF
    ? words.t('hostTold.emailOff')
    : error
      ? error.replace(/^Not sent: /, '')
      : words.t('hostTold.noReason');

/**
 * Whether the visit's host was told of what the visit is now (its arrival, or that it waits), in words for
 * one line of On site now or Approvals: "Host told 09:41 by email", or why not (docs/notifications.md).
 */
export function hostToldWords(
  words: ConsoleWords,
  checkin: Pick<PersonCheckinAnswer, 'hostId' | 'hostName' | 'status'>,
  notifications: readonly NotificationAnswer[] | undefined,
  timeZone?: string,
  now = new Date(),
): string | null {
  if (checkin.hostId === null) return checkin.hostName ? words.t('hostTold.notListed') : null;
  if (notifications === undefined) return null;
  const event = checkin.status === 'PENDING' ? 'waiting' : 'arrived';
  const mine = notifications.filter((item) => item.event === event);
  if (mine.length === 0) return words.t('hostTold.noChannel');
  const channel = (name: string) => words.t('hostTold.channel', { channel: name });
  const both = (items: string[]) => items.reduce((first, second) => words.t('hostTold.both', { first, second }));
  const parts: string[] = [];
  const sent = mine.filter((item) => item.status === 'sent' && item.sentAt !== null);
  if (sent.length > 0) {
    const times = sent.map((item) =>
      words.t('hostTold.sentBy', { time: since(item.sentAt ?? '', timeZone, now), channel: channel(item.channel) }),
    );
    parts.push(words.t('hostTold.told', { times: both(times) }));
  }
  for (const item of mine.filter((candidate) => candidate.status === 'failed')) {
    const why = reason(words, item.attempts[item.attempts.length - 1]?.error);
    parts.push(words.t('hostTold.failed', { channel: channel(item.channel), reason: why }));
  }
  const pending = mine.filter((item) => item.status === 'pending').map((item) => channel(item.channel));
  if (pending.length > 0) parts.push(words.t('hostTold.pending', { channels: both(pending) }));
  return parts.join('; ');
}
