import net from 'node:net';
import type { Env } from '../config/env';
import type { Executor } from '../db/query';
import { type NotificationSender, startNotificationSender } from '../jobs/notificationSender';
import type { Logger } from '../logger';
import { createChatTransport } from './transports/chat';
import { createEmailTransport } from './transports/email';

/** Where hosts reach this server: PUBLIC_URL, else the address it listens on. */
export function publicUrlOf(env: Pick<Env, 'PUBLIC_URL' | 'HOST' | 'PORT'>, port = env.PORT): string {
  if (env.PUBLIC_URL) return env.PUBLIC_URL.replace(/\/+$/, '');
  return `http://${net.isIPv6(env.HOST) ? `[${env.HOST}]` : env.HOST}:${port}`;
}

/** Whether hosts can be told by email from this server, and in words (the console shows it). */
export function emailStatus(env: Pick<Env, 'SMTP_URL' | 'MAIL_FROM'>): { enabled: boolean; detail: string } {
  return env.SMTP_URL && env.MAIL_FROM
    ? { enabled: true, detail: `Sent from ${env.MAIL_FROM}` }
    : { enabled: false, detail: 'Email is off: the server has no SMTP_URL' };
}

/** The notification sender of `npm start` and `npm run worker`, configured from the environment. */
export function startSenderFromEnv(input: {
  env: Env;
  database: Executor;
  log: Logger;
  port?: number;
}): NotificationSender {
  const { env } = input;
  return startNotificationSender({
    database: input.database,
    log: input.log,
    email:
      env.SMTP_URL && env.MAIL_FROM ? createEmailTransport({ smtpUrl: env.SMTP_URL, from: env.MAIL_FROM }) : undefined,
    chat: createChatTransport({ allowPrivateUrls: env.WEBHOOK_ALLOW_PRIVATE_URLS }),
    publicUrl: publicUrlOf(env, input.port),
    pollMs: env.NOTIFICATIONS_POLL_MS,
  });
}
