import { expect } from 'vitest';
import type { Notification } from '../../shared/src/schemas/notifications';
import {
  type NotificationSender,
  type NotificationSenderOptions,
  startNotificationSender,
} from '../../server/src/jobs/notificationSender';
import { createChatTransport } from '../../server/src/notifications/transports/chat';
import { createEmailTransport } from '../../server/src/notifications/transports/email';
import type { ApiClient } from './http';
import type { TestServer } from './testServer';

/**
 * A notification sender on the test server's database with test timings (polls every 20 ms, retries after
 * 50 ms then 100 ms), sending real email to `smtpUrl` (none: email off) and real chat posts.
 */
export function startTestNotifier(
  server: Pick<TestServer, 'database' | 'logs' | 'baseUrl'>,
  input: { smtpUrl?: string } & Partial<NotificationSenderOptions> = {},
): NotificationSender {
  const { smtpUrl, ...overrides } = input;
  const record = (level: string) => (message: string, fields?: Record<string, unknown>) => {
    server.logs.push({ level, message, fields });
  };
  return startNotificationSender({
    database: server.database,
    log: { info: record('info'), warn: record('warn'), error: record('error') },
    email: smtpUrl ? createEmailTransport({ smtpUrl, from: 'Gatehouse <gatehouse@example.com>' }) : undefined,
    chat: createChatTransport({ allowPrivateUrls: true, timeoutMs: 2_000 }),
    publicUrl: server.baseUrl,
    pollMs: 20,
    retryScheduleMs: [50, 100],
    random: () => 0.5,
    ...overrides,
  });
}

/** The notifications of one check-in, once `done` holds for them. */
export async function waitForNotifications(
  api: ApiClient,
  checkinId: number,
  done: (notifications: Notification[]) => boolean,
  timeoutMs = 10_000,
): Promise<Notification[]> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const response = await api.get<{ data: Notification[] }>(`/v1/notifications?checkinId=${checkinId}`);
    expect(response.status, response.text).toBe(200);
    if (done(response.body.data)) return response.body.data;
    if (Date.now() > deadline) throw new Error(`notifications never settled: ${JSON.stringify(response.body.data)}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

/** Every notification of the list is `sent` (and there are `count`). */
export const allSent = (count: number) => (notifications: Notification[]) =>
  notifications.length === count && notifications.every((item) => item.status === 'sent');
