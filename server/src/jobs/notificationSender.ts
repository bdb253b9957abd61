import type { Executor } from '../db/query';
import type { Logger } from '../logger';
import { composers } from '../notifications/compose';
import type { ComposeContext } from '../notifications/composer';
import {
  type AttemptOutcome,
  type ClaimedNotification,
  claimDueNotifications,
  recordNotificationAttempt,
} from '../notifications/queue';
import { NOTIFICATION_RETRY_MS, retryDelayMs } from '../notifications/retry';
import type { ChatTransport } from '../notifications/transports/chat';
import { EMAIL_TIMEOUT_MS, type EmailTransport } from '../notifications/transports/email';
import type { SendOutcome } from '../notifications/transports/outcome';

export interface NotificationSenderOptions {
  database: Executor;
  log: Logger;
  /** Undefined: email is off (no SMTP_URL); email notifications fail at once and say so. */
  email: EmailTransport | undefined;
  chat: ChatTransport;
  /** Where hosts reach this server (PUBLIC_URL, else the server's own address): the links in messages. */
  publicUrl: string;
  /** How often an idle sender looks for due notifications (NOTIFICATIONS_POLL_MS). */
  pollMs: number;
  /** Notifications leased per round. */
  batch?: number;
  /** Test seams: the retry schedule, its jitter, the clock. */
  retryScheduleMs?: readonly number[];
  random?: () => number;
  clock?: () => Date;
}

export interface NotificationSender {
  /** Stops looking for work, finishes the messages under way and records them. */
  stop: () => Promise<void>;
}

/** Longer than any one message can take (email's own bound), so a live attempt never loses its lease. */
const LEASE_MS = EMAIL_TIMEOUT_MS + 30_000;
export const EMAIL_OFF = 'Email is off: this server has no SMTP_URL';

/**
 * Sends the notification outbox (docs/notifications.md, Delivery), in any number of processes at once: each
 * notification is leased for one attempt, composed then (a waiting visitor's links issued then), sent on its
 * channel and recorded while the lease holds. A crash between sending and recording sends it again once the
 * lease expires (at least once); nothing is lost, as the rows were committed with the change. Failed attempts
 * are retried with backoff until the notification is a day old, then it is `failed`.
 */
export function startNotificationSender(options: NotificationSenderOptions): NotificationSender {
  const { database: db, log, pollMs } = options;
  const batch = options.batch ?? 20;
  const schedule = options.retryScheduleMs ?? NOTIFICATION_RETRY_MS;
  const random = options.random ?? Math.random;
  const clock = options.clock ?? (() => new Date());
  let stopping = false;
  let wake: (() => void) | undefined;

  const deliver = async (notification: ClaimedNotification, context: ComposeContext): Promise<SendOutcome> => {
    if (notification.channel === 'email' && !options.email) return { ok: false, error: EMAIL_OFF, permanent: true };
    const composer = composers[notification.event];
    if (!composer) return { ok: false, error: `Not sent: no message for ${notification.event}`, permanent: true };
    const composed = await composer(notification, context);
    if ('refusal' in composed) return { ok: false, error: composed.refusal, permanent: true };
    return notification.channel === 'email' && options.email
      ? options.email.send(notification.recipient, composed.message)
      : options.chat.send(notification.recipient, composed.message);
  };

  const outcomeOf = (notification: ClaimedNotification, sent: SendOutcome): AttemptOutcome => {
    const at = clock();
    if (sent.ok) return { status: 'sent', at };
    if (sent.permanent) return { status: 'failed', at, error: sent.error };
    const nextAttemptAt = new Date(at.getTime() + retryDelayMs(notification.tried + 1, schedule, random));
    if (nextAttemptAt > notification.give_up_at)
      return { status: 'failed', at, error: `${sent.error} (given up after trying for 24 hours)` };
    return { status: 'pending', at, error: sent.error, nextAttemptAt };
  };

  const attempt = async (notification: ClaimedNotification): Promise<void> => {
    let sent: SendOutcome;
    try {
      sent = await deliver(notification, { db, publicUrl: options.publicUrl, now: clock() });
    } catch (error) {
      log.warn('notification not composed', { notificationId: notification.id, error: String(error) });
      sent = { ok: false, error: 'Not sent: the server could not prepare the message', permanent: false };
    }
    const outcome = outcomeOf(notification, sent);
    const kept = await recordNotificationAttempt(db, notification, outcome);
    // Ids and kinds only: never the address, the chat URL or a link.
    const fields = { notificationId: notification.id, channel: notification.channel, event: notification.event };
    if (!kept) log.warn('notification outcome not recorded (lease lost)', fields);
    else if (outcome.status === 'sent') log.info('notification sent', fields);
    else log.warn(`notification ${outcome.status}`, { ...fields, error: outcome.error });
  };

  const pause = () =>
    new Promise<void>((resolve) => {
      const timer = setTimeout(done, pollMs);
      function done() {
        clearTimeout(timer);
        wake = undefined;
        resolve();
      }
      wake = done;
    });

  const loop = (async () => {
    while (!stopping) {
      let claimed: ClaimedNotification[] = [];
      try {
        claimed = await claimDueNotifications(db, { limit: batch, leaseMs: LEASE_MS, now: clock() });
        await Promise.all(
          claimed.map((notification) =>
            attempt(notification).catch((error: unknown) =>
              log.warn('notification attempt not recorded', { notificationId: notification.id, error: String(error) }),
            ),
          ),
        );
      } catch (error) {
        log.warn('notification round failed', { error: String(error) });
      }
      if (!stopping && claimed.length < batch) await pause();
    }
  })();

  return {
    async stop() {
      stopping = true;
      wake?.();
      await loop;
      options.email?.close();
      await options.chat.close();
    },
  };
}
