import { type ParsedMail, simpleParser } from 'mailparser';
import { SMTPServer } from 'smtp-server';

/** One message the server accepted, parsed as a mail client would. */
export interface ReceivedMail {
  /** The envelope's recipients (RCPT TO). */
  to: string[];
  from: string;
  /** Whoever authenticated for it (SMTP AUTH), if anyone. */
  user: string | undefined;
  mail: ParsedMail;
}

export interface MailServer {
  port: number;
  /** `smtp://user:pass@127.0.0.1:port` for SMTP_URL. */
  url: string;
  received: ReceivedMail[];
  /** While true, the server takes each message's data and never answers it (the sender waits). */
  stall: boolean;
  waitFor: (count: number, timeoutMs?: number) => Promise<ReceivedMail[]>;
  close: () => Promise<void>;
}

export const SMTP_USER = 'gatehouse';
export const SMTP_PASSWORD = 'smtp-secret-Xq7';

/**
 * A real SMTP server (the `smtp-server` package) on 127.0.0.1 and a free port (or the one given): plain SMTP with AUTH PLAIN
 * or LOGIN required, as a relay of a mail provider asks; every accepted message is parsed and kept.
 */
export async function startMailServer(options: { port?: number } = {}): Promise<MailServer> {
  const received: ReceivedMail[] = [];
  const server = new SMTPServer({
    secure: false,
    // A relay on the same machine: no TLS to negotiate (nodemailer then sends in the clear, as to localhost).
    disabledCommands: ['STARTTLS'],
    allowInsecureAuth: true,
    authMethods: ['PLAIN', 'LOGIN'],
    onAuth(auth, _session, callback) {
      if (auth.username === SMTP_USER && auth.password === SMTP_PASSWORD) callback(null, { user: auth.username });
      else callback(new Error('Invalid username or password'));
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        if (mailServer.stall) return;
        void simpleParser(Buffer.concat(chunks)).then((mail) => {
          received.push({
            to: session.envelope.rcptTo.map((address) => address.address),
            from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
            user: typeof session.user === 'string' ? session.user : undefined,
            mail,
          });
          callback();
        }, callback);
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, '127.0.0.1', resolve));
  const address = server.server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  const mailServer: MailServer = {
    port,
    url: `smtp://${SMTP_USER}:${SMTP_PASSWORD}@127.0.0.1:${port}`,
    received,
    stall: false,
    async waitFor(count, timeoutMs = 10_000) {
      const deadline = Date.now() + timeoutMs;
      while (received.length < count) {
        if (Date.now() > deadline) throw new Error(`expected ${count} emails, got ${received.length}`);
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
      return received;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
  return mailServer;
}
