import nodemailer from 'nodemailer';
import { type RenderedMessage, html, plainText } from '../messages/rendered';
import { MAX_ERROR_LENGTH, type SendOutcome } from './outcome';

export interface EmailTransport {
  send: (to: string, message: RenderedMessage) => Promise<SendOutcome>;
  close: () => void;
}

/** How long one email may take, connecting included; the sender's lease outlasts it (notificationSender.ts). */
export const EMAIL_TIMEOUT_MS = 30_000;

const KNOWN: Record<string, string> = {
  ECONNREFUSED: 'The mail server refused the connection',
  ECONNECTION: 'Could not connect to the mail server',
  ETIMEDOUT: 'The mail server did not answer in time',
  EDNS: 'The mail server’s host does not resolve',
  EAUTH: 'The mail server refused the user name or password of SMTP_URL',
  EABORT: `The mail server took over ${EMAIL_TIMEOUT_MS / 1000} s`,
};

/** Why a send failed, in words, never with SMTP_URL's password; a 5xx answer is permanent (docs/notifications.md). */
function describe(error: unknown): { error: string; permanent: boolean } {
  const { code, responseCode, response } = error as { code?: string; responseCode?: number; response?: string };
  if (typeof responseCode === 'number' && typeof response === 'string') {
    return {
      error: `The mail server answered: ${response}`.slice(0, MAX_ERROR_LENGTH),
      permanent: responseCode >= 500,
    };
  }
  const known = code ? KNOWN[code] : undefined;
  return { error: (known ?? 'The email could not be sent').slice(0, MAX_ERROR_LENGTH), permanent: false };
}

/**
 * Email through the SMTP server of `SMTP_URL` (`smtp://user:pass@host:587`, STARTTLS when offered, or
 * `smtps://…:465`), from `MAIL_FROM`, with nodemailer: one connection per message, each bounded in time.
 */
export function createEmailTransport(options: { smtpUrl: string; from: string }): EmailTransport {
  const transporter = nodemailer.createTransport({
    url: options.smtpUrl,
    connectionTimeout: 10_000,
    greetingTimeout: 10_000,
    socketTimeout: 20_000,
  });
  return {
    async send(to, message) {
      const mail = {
        from: options.from,
        to,
        subject: message.subject,
        text: plainText(message),
        html: html(message),
        headers: { 'Content-Language': message.language, 'Auto-Submitted': 'auto-generated' },
        attachments: [
          ...(message.image
            ? [{ filename: 'pass.png', content: message.image.png, contentType: 'image/png', cid: message.image.cid }]
            : []),
          ...(message.attachments ?? []),
        ],
        // nodemailer ≥ 10.5: closes this message's connection when it takes too long.
        signal: AbortSignal.timeout(EMAIL_TIMEOUT_MS),
      };
      try {
        const info = await transporter.sendMail(mail);
        if (info.rejected.length > 0)
          return { ok: false, error: 'The mail server refused the address', permanent: true };
        return { ok: true };
      } catch (error) {
        return { ok: false, ...describe(error) };
      }
    },
    close: () => transporter.close(),
  };
}
