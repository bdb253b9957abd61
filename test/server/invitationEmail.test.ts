import { compactVerify, createLocalJWKSet } from 'jose';
import jsQR from 'jsqr';
import { PNG } from 'pngjs';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Invitation, PassKeyList } from '../../shared/src/schemas/invitations';
import type { NotificationSender } from '../../server/src/jobs/notificationSender';
import { invite, passOf } from '../support/invitations';
import { type MailServer, SMTP_PASSWORD, SMTP_USER, startMailServer } from '../support/mailServer';
import { startTestNotifier } from '../support/notifications';
import { serverAndWorld } from '../support/serverAndWorld';

const harness = serverAndWorld();
let mail: MailServer;
let notifier: NotificationSender;

beforeAll(async () => {
  mail = await startMailServer();
  notifier = startTestNotifier(harness.server, { smtpUrl: mail.url });
});
afterAll(async () => {
  await notifier?.stop();
  await mail?.close();
});
beforeEach(() => {
  mail.received.length = 0;
});

/** Lets the sender run a few more rounds: whatever it would send twice, it would have by then. */
const settle = () => new Promise((resolve) => setTimeout(resolve, 300));

/** The invitation once its email is no longer pending. */
async function settled(id: number, timeoutMs = 10_000): Promise<Invitation> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const read = (await harness.world.api.get<Invitation>(`/v1/invitations/${id}`)).body;
    if (read.passEmail && read.passEmail.status !== 'pending') return read;
    if (Date.now() > deadline) throw new Error(`email never settled: ${JSON.stringify(read.passEmail)}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

/** The text of the QR code in a PNG, read as a phone's camera would. */
function qrText(png: Buffer): string | undefined {
  const image = PNG.sync.read(png);
  return jsQR(new Uint8ClampedArray(image.data), image.width, image.height)?.data;
}

describe('the visitor’s email', () => {
  it('carries the pass as a QR code and as text, and an .ics entry; the pass verifies with the published keys', async () => {
    const { world } = harness;
    const host = (
      await world.api.post<{ hostId: number }>('/v1/hosts', { name: 'Grace Hopper', siteIds: [world.siteId] })
    ).body;
    const created = await invite(world.api, world.siteId, {
      person: { firstName: 'Ada', lastName: 'Lovelace', email: 'ada@example.com' },
      hostId: host.hostId,
      purpose: 'Design review',
    });
    expect(created.passEmail).toEqual({ status: 'pending', at: null, error: null });
    const [received] = await mail.waitFor(1);
    expect(received?.to).toEqual(['ada@example.com']);
    expect(received?.user).toBe(SMTP_USER);
    const message = received?.mail;
    expect(message?.subject).toMatch(/^Your visit to Site \d+ on /);
    expect(message?.headers.get('content-language')).toBe('en');
    const { token } = await passOf(world.api, created.invitationId);
    // As text: in the plain part and in the HTML (where it breaks anywhere, for a phone's width).
    expect(message?.text).toContain(token);
    expect(message?.text).toContain('to see Grace Hopper.');
    expect(message?.text).toContain('Purpose of your visit: Design review');
    expect(message?.text).toContain('tap Scan a pass on the kiosk');
    expect(message?.html).toContain(token);
    expect(message?.html).not.toContain(SMTP_PASSWORD);
    // As a QR code, inline (cid) and shown in the HTML.
    const qr = message?.attachments.find((attachment) => attachment.contentType === 'image/png');
    expect(qr?.cid).toBe('pass-qr');
    expect(message?.html).toMatch(/<img [^>]*alt="Your pass as a QR code"/);
    const scanned = qrText(qr?.content ?? Buffer.alloc(0));
    expect(scanned).toBe(token);
    // The pass read from the QR verifies with the account's published keys, and names this invitation.
    const keys = (await world.api.get<PassKeyList>('/v1/pass-keys')).body;
    const verified = await compactVerify(scanned ?? '', createLocalJWKSet(keys));
    expect(JSON.parse(new TextDecoder().decode(verified.payload))).toMatchObject({
      inv: created.invitationId,
      site: world.siteId,
      firstName: 'Ada',
      lastName: 'Lovelace',
    });
    // The calendar entry: when, where, and the same entry (UID) each time it is sent.
    const ics = message?.attachments.find((attachment) => attachment.filename === 'visit.ics');
    expect(ics?.contentType).toBe('text/calendar');
    const calendar = ics?.content.toString('utf8') ?? '';
    const stamp = (iso: string) => iso.replace(/[-:]/g, '').replace(/\.\d{3}/, '');
    expect(calendar).toContain(`DTSTART:${stamp(created.expectedAt)}`);
    expect(calendar).toContain(`UID:invitation-${world.accountId}-${created.invitationId}@gatehouse`);
    expect(calendar).toMatch(/^BEGIN:VCALENDAR\r\n[\s\S]*METHOD:PUBLISH\r\n[\s\S]*END:VCALENDAR\r\n$/);
    expect(calendar.split('\r\n').every((line) => Buffer.byteLength(line) <= 75)).toBe(true);
    const sent = await settled(created.invitationId);
    expect(sent.passEmail?.status).toBe('sent');
    expect(sent.passEmail?.at).not.toBeNull();
  });

  it("speaks the invitation's language, else the site's default language as it is when sent", async () => {
    const { world } = harness;
    const german = await invite(world.api, world.siteId, {
      person: { firstName: 'Jürgen', lastName: 'Klein', email: 'juergen@example.com' },
      purpose: 'Besprechung',
      language: 'de',
    });
    expect(german.language).toBe('de');
    const [received] = await mail.waitFor(1);
    const message = received?.mail;
    expect(message?.subject).toMatch(/^Ihr Besuch bei Site \d+ am /);
    expect(message?.headers.get('content-language')).toBe('de');
    for (const words of ['Guten Tag Jürgen,', 'Grund des Besuchs: Besprechung', 'auf „Besucherpass scannen“'])
      expect(message?.text).toContain(words);
    expect(message?.text).not.toMatch(/Your pass|Hello|reception/);
    expect(message?.html).toContain('<html lang="de" dir="ltr">');
    expect(message?.html).toMatch(/<img [^>]*alt="Ihr Besucherpass als QR-Code"/);
    const ics = message?.attachments.find((attachment) => attachment.filename === 'visit.ics');
    expect(ics?.content.toString('utf8')).toMatch(/SUMMARY:Besuch bei Site \d+\r\n/);

    // Without a language of its own: the site's default (here Arabic, right to left).
    expect((await world.api.patch(`/v1/sites/${world.siteId}`, { defaultLanguage: 'ar' })).status).toBe(200);
    try {
      const unsaid = await invite(world.api, world.siteId, {
        person: { firstName: 'Layla', lastName: 'Haddad', email: 'layla@example.com' },
      });
      expect(unsaid.language).toBeNull();
      const arabic = (await mail.waitFor(2))[1]?.mail;
      expect(arabic?.subject).toMatch(/^زيارتك إلى Site \d+ يوم /);
      expect(arabic?.headers.get('content-language')).toBe('ar');
      expect(arabic?.html).toContain('<html lang="ar" dir="rtl">');
      // A language chosen later applies to the next email: French on resend.
      const changed = await world.api.patch<Invitation>(`/v1/invitations/${unsaid.invitationId}`, { language: 'fr' });
      expect(changed.body.language).toBe('fr');
      expect((await world.api.post(`/v1/invitations/${unsaid.invitationId}/resend`)).status).toBe(200);
      const french = (await mail.waitFor(3))[2]?.mail;
      expect(french?.subject).toMatch(/^Votre visite chez Site \d+ le /);
      expect(french?.text).toContain('Bonjour Layla,');
    } finally {
      await world.api.patch(`/v1/sites/${world.siteId}`, { defaultLanguage: 'en' });
    }
  });

  it('is sent exactly once; a resend sends the same pass once more; none without an email or when asked not to', async () => {
    const { world } = harness;
    const created = await invite(world.api, world.siteId, {
      person: { firstName: 'Once', lastName: 'Only', email: 'once@example.com' },
    });
    await mail.waitFor(1);
    await settle();
    expect(mail.received).toHaveLength(1);
    const resent = await world.api.post<Invitation>(`/v1/invitations/${created.invitationId}/resend`);
    expect(resent.status).toBe(200);
    await mail.waitFor(2);
    await settle();
    expect(mail.received).toHaveLength(2);
    const tokens = mail.received.map((item) => /eyJ[\w-]+\.[\w-]+\.[\w-]+/.exec(item.mail.text ?? '')?.[0]);
    expect(tokens[0]).toBe(tokens[1]);
    const quiet = await invite(world.api, world.siteId, {
      person: { firstName: 'No', lastName: 'Mail', email: 'nomail@example.com' },
      sendEmail: false,
    });
    const none = await invite(world.api, world.siteId, { person: { firstName: 'No', lastName: 'Address' } });
    await settle();
    expect(mail.received).toHaveLength(2);
    expect(quiet.passEmail).toBeNull();
    expect(none.passEmail).toBeNull();
  });

  it('a changed pass is sent again; a cancelled invitation’s email not yet sent is not sent', async () => {
    const { world } = harness;
    const created = await invite(world.api, world.siteId, {
      person: { firstName: 'Ada', lastName: 'Byron', email: 'byron@example.com' },
    });
    await mail.waitFor(1);
    const changed = await world.api.patch(`/v1/invitations/${created.invitationId}`, {
      person: { lastName: 'King' },
    });
    expect(changed.status).toBe(200);
    await mail.waitFor(2);
    expect(mail.received[1]?.mail.text).toContain((await passOf(world.api, created.invitationId)).token);
    // Held at the mail server, then cancelled before the sender could finish: the next attempt sends nothing.
    await notifier.stop();
    const late = await invite(world.api, world.siteId, {
      person: { firstName: 'Too', lastName: 'Late', email: 'late@example.com' },
    });
    expect((await world.api.post(`/v1/invitations/${late.invitationId}/cancel`)).status).toBe(200);
    notifier = startTestNotifier(harness.server, { smtpUrl: mail.url });
    const read = await settled(late.invitationId);
    expect(read.passEmail).toMatchObject({ status: 'failed', error: 'Not sent: the invitation was cancelled' });
    expect(mail.received).toHaveLength(2);
  });

  it('is retried while the mail server is away, and sent once it is back', async () => {
    const { world, server } = harness;
    const away = await startMailServer();
    const { port } = away;
    await away.close();
    await notifier.stop();
    notifier = startTestNotifier(server, { smtpUrl: `smtp://${SMTP_USER}:${SMTP_PASSWORD}@127.0.0.1:${port}` });
    const created = await invite(world.api, world.siteId, {
      person: { firstName: 'Patient', lastName: 'Visitor', email: 'patient@example.com' },
    });
    const deadline = Date.now() + 10_000;
    let read = created;
    while (!read.passEmail?.error && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 25));
      read = (await world.api.get<Invitation>(`/v1/invitations/${created.invitationId}`)).body;
    }
    // Not given up: pending, with why the last attempt failed.
    expect(read.passEmail?.status).toBe('pending');
    expect(read.passEmail?.error).toMatch(/email could not be sent|mail server/);
    const back = await startMailServer({ port });
    try {
      await back.waitFor(1);
      expect(back.received[0]?.to).toEqual(['patient@example.com']);
      expect((await settled(created.invitationId)).passEmail?.status).toBe('sent');
    } finally {
      await notifier.stop();
      notifier = startTestNotifier(server, { smtpUrl: mail.url });
      await back.close();
    }
  });
});
