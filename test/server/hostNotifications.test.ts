import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { AuditEvent } from '../../shared/src/schemas/audit';
import type { Host } from '../../shared/src/schemas/hosts';
import type { HostDecisionPreview, NotificationChannels } from '../../shared/src/schemas/notifications';
import type { PersonCheckin } from '../../shared/src/schemas/personCheckins';
import type { NotificationSender } from '../../server/src/jobs/notificationSender';
import { type ChatReceiver, startChatReceiver } from '../support/chatReceiver';
import { visitor } from '../support/factories';
import { apiClient } from '../support/http';
import { type MailServer, SMTP_USER, startMailServer } from '../support/mailServer';
import { allSent, startTestNotifier, waitForNotifications } from '../support/notifications';
import { serverAndWorld } from '../support/serverAndWorld';
import { staffClient } from '../support/staff';

const harness = serverAndWorld({ worldPerTest: true, env: { WEBHOOK_ALLOW_PRIVATE_URLS: 'true' } });
let mail: MailServer;
let chat: ChatReceiver;
let notifier: NotificationSender;

beforeAll(async () => {
  mail = await startMailServer();
  chat = await startChatReceiver();
  notifier = startTestNotifier(harness.server, { smtpUrl: mail.url });
});
afterAll(async () => {
  await notifier?.stop();
  await mail?.close();
  await chat?.close();
});
beforeEach(() => {
  mail.received.length = 0;
  chat.posts.length = 0;
  chat.answer = () => 200;
});

const people = () => `/v1/sites/${harness.world.siteId}/checkins/people`;

async function addHost(body: Record<string, unknown>): Promise<Host> {
  const response = await harness.world.api.post<Host>('/v1/hosts', { siteIds: [harness.world.siteId], ...body });
  expect(response.status, response.text).toBe(201);
  return response.body;
}

async function checkIn(body: Record<string, unknown>): Promise<PersonCheckin> {
  const response = await harness.world.api.post<PersonCheckin>(people(), body);
  expect(response.status, response.text).toBe(201);
  return response.body;
}

async function requireApproval(): Promise<void> {
  const config = `/v1/sites/${harness.world.siteId}/checkins/people/config`;
  const current = await harness.world.api.get<{ fields: unknown[] }>(config);
  expect((await harness.world.api.put(config, { requiresApproval: true, fields: current.body.fields })).status).toBe(
    200,
  );
}

/** Lets the sender run a few more rounds: whatever it would send twice, it would have by then. */
const settle = () => new Promise((resolve) => setTimeout(resolve, 300));

/** The secret of a link in a message (the part after `#`). */
function linkToken(text: string, label: string): string {
  const match = new RegExp(`${label}: (http://[^\\s]+/console/decide#([A-Za-z0-9_-]{43}))`).exec(text);
  if (!match?.[2]) throw new Error(`no ${label} link in: ${text}`);
  return match[2];
}

describe('a host is told of an arrival, once per channel', () => {
  it('sends one real email and one Slack post when a visitor arrives, saying who, from where, where and when', async () => {
    const host = await addHost({
      name: 'Grace Hopper',
      email: 'grace@example.com',
      notifyBy: ['email', 'chat'],
      chatWebhookUrl: chat.slackUrl('grace'),
    });
    expect(
      (await harness.world.api.patch(`/v1/sites/${harness.world.siteId}`, { timezone: 'Asia/Tokyo' })).status,
    ).toBe(200);
    const arrivedAt = new Date(Math.floor((Date.now() - 3_600_000) / 60_000) * 60_000);
    const created = await checkIn({
      person: { firstName: 'Ada', lastName: 'Lovelace', company: 'ACME' },
      hostId: host.hostId,
      occurredAt: arrivedAt.toISOString(),
    });
    // Tokyo is UTC+9 all year: the site's time, with its zone.
    const tokyo = new Date(arrivedAt.getTime() + 9 * 3_600_000).toISOString().slice(11, 16);
    const [email] = await mail.waitFor(1);
    const [post] = await chat.waitFor(1);
    await settle();
    expect(mail.received).toHaveLength(1);
    expect(chat.posts).toHaveLength(1);

    expect(email?.to).toEqual(['grace@example.com']);
    expect(email?.user).toBe(SMTP_USER);
    expect(email?.mail.subject).toMatch(/^Ada Lovelace from ACME has arrived at /);
    expect(email?.mail.text).toContain(`, ${tokyo} GMT+9 to see you`);
    expect(email?.mail.html).toContain('Ada Lovelace from ACME arrived at');
    expect(email?.mail.from?.value).toEqual([{ name: 'Gatehouse', address: 'gatehouse@example.com' }]);

    expect(post?.path).toBe('/services/T000/B000/grace');
    const slack = post?.body as { text: string; blocks: Array<{ type: string }> };
    expect(slack.text).toContain('Ada Lovelace from ACME arrived at');
    expect(slack.blocks[0]).toMatchObject({ type: 'section', text: { type: 'mrkdwn' } });

    const sent = await waitForNotifications(harness.world.api, created.checkinId, allSent(2));
    expect(sent.map((item) => [item.channel, item.event, item.hostId]).sort()).toEqual([
      ['chat', 'arrived', host.hostId],
      ['email', 'arrived', host.hostId],
    ]);
    expect(sent.every((item) => item.attempts.length === 1 && item.attempts[0]?.error === null)).toBe(true);
  });

  it('posts to a Teams workflow as an Adaptive Card', async () => {
    const host = await addHost({ name: 'Alan', notifyBy: ['chat'], chatWebhookUrl: chat.teamsUrl('alan') });
    chat.answer = () => 202;
    const created = await checkIn(visitor('Ada', 'Lovelace', { hostId: host.hostId }));
    const [post] = await chat.waitFor(1);
    const teams = post?.body as {
      type: string;
      attachments: Array<{
        contentType: string;
        content: { type: string; body: Array<{ type: string; text: string }> };
      }>;
    };
    expect(teams.type).toBe('message');
    expect(teams.attachments.map((attachment) => attachment.contentType)).toEqual([
      'application/vnd.microsoft.card.adaptive',
    ]);
    const card = teams.attachments[0]?.content;
    expect(card?.type).toBe('AdaptiveCard');
    expect(card?.body[0]).toMatchObject({ type: 'TextBlock' });
    expect(card?.body[0]?.text).toMatch(/^Ada Lovelace has arrived at /);
    await waitForNotifications(harness.world.api, created.checkinId, allSent(1));
    expect(mail.received).toHaveLength(0);
  });

  it('tells nobody of a STOP, of a visit without a host, or of a break’s end', async () => {
    const host = await addHost({ name: 'Grace', email: 'grace@example.com' });
    await harness.world.api.post('/v1/watchlist/people', { email: 'mallory@example.com' });
    const stopped = await checkIn({
      person: { firstName: 'Mal', lastName: 'Lory', email: 'mallory@example.com' },
      hostId: host.hostId,
    });
    expect(stopped.status).toBe('STOP');
    await checkIn(visitor('No', 'Host'));
    const inside = await checkIn(visitor('Bea', 'Break', { hostId: host.hostId }));
    await mail.waitFor(1);
    expect((await harness.world.api.post(`${people()}/${inside.checkinId}/breaks/start`)).status).toBe(200);
    expect((await harness.world.api.post(`${people()}/${inside.checkinId}/breaks/end`)).status).toBe(200);
    await settle();
    expect(mail.received.map((item) => item.mail.subject)).toEqual([expect.stringMatching(/^Bea Break has arrived/)]);
    expect(await waitForNotifications(harness.world.api, stopped.checkinId, () => true)).toEqual([]);
  });

  it('retries a failed post, and fails at once on an answer that cannot change (404)', async () => {
    const flaky = await addHost({ name: 'Flaky', notifyBy: ['chat'], chatWebhookUrl: chat.slackUrl('flaky') });
    const gone = await addHost({ name: 'Gone', notifyBy: ['chat'], chatWebhookUrl: chat.slackUrl('gone') });
    chat.answer = (post, index) => (post.path.endsWith('/gone') ? 404 : index === 0 ? 500 : 200);
    const retried = await checkIn(visitor('Ada', 'One', { hostId: flaky.hostId }));
    const [sent] = await waitForNotifications(harness.world.api, retried.checkinId, allSent(1));
    expect(sent?.attempts.map((attempt) => attempt.error)).toEqual(['The chat service answered 500', null]);
    const refused = await checkIn(visitor('Ada', 'Two', { hostId: gone.hostId }));
    const [failed] = await waitForNotifications(harness.world.api, refused.checkinId, (items) =>
      items.every((item) => item.status === 'failed' && items.length === 1),
    );
    expect(failed?.attempts.map((attempt) => attempt.error)).toEqual(['The chat service answered 404']);
  });
});

describe('a waiting visitor: the host approves or denies by a one-time link', () => {
  it('approves once by the email’s link, as the host; then the host is told of the arrival', async () => {
    await requireApproval();
    const host = await addHost({ name: 'Grace Hopper', email: 'grace@example.com' });
    const waiting = await checkIn({ person: { firstName: 'Ada', lastName: 'Lovelace' }, hostId: host.hostId });
    expect(waiting.status).toBe('PENDING');
    const [email] = await mail.waitFor(1);
    expect(email?.mail.subject).toMatch(/^Ada Lovelace is waiting for your approval at /);
    const text = email?.mail.text ?? '';
    const approve = linkToken(text, 'Approve');
    const deny = linkToken(text, 'Deny');
    expect(email?.mail.html).toContain(`/console/decide#${approve}`);

    const anyone = apiClient(harness.server.baseUrl);
    const preview = await anyone.post<HostDecisionPreview>('/v1/host-decisions/preview', { token: approve });
    expect(preview.status, preview.text).toBe(200);
    expect(preview.body).toMatchObject({
      action: 'approve',
      hostName: 'Grace Hopper',
      visitor: { firstName: 'Ada', lastName: 'Lovelace', company: null },
      language: 'en',
    });
    // Reading it decides nothing.
    expect((await harness.world.api.get<PersonCheckin>(`${people()}/${waiting.checkinId}`)).body.status).toBe(
      'PENDING',
    );

    const decided = await anyone.post<{ status: string }>('/v1/host-decisions', { token: approve });
    expect(decided.status, decided.text).toBe(200);
    expect(decided.body.status).toBe('IN');
    const read = await harness.world.api.get<PersonCheckin>(`${people()}/${waiting.checkinId}`);
    expect(read.body).toMatchObject({
      status: 'IN',
      decidedBy: { type: 'host', id: host.hostId, name: 'Grace Hopper' },
    });
    // The link works once; the visit's other link no longer decides either.
    expect((await anyone.post('/v1/host-decisions', { token: approve })).status).toBe(404);
    expect((await anyone.post('/v1/host-decisions', { token: deny })).status).toBe(404);
    expect((await anyone.post('/v1/host-decisions/preview', { token: deny })).status).toBe(404);

    const [, arrival] = await mail.waitFor(2);
    expect(arrival?.mail.subject).toMatch(/^Ada Lovelace has arrived at /);
    const notifications = await waitForNotifications(harness.world.api, waiting.checkinId, allSent(2));
    expect(notifications.map((item) => item.event).sort()).toEqual(['arrived', 'waiting']);

    const owner = await staffClient(harness.server, { accountId: harness.world.accountId, role: 'owner' });
    const audit = await owner.api.get<{ data: AuditEvent[] }>('/v1/audit-events?action=checkin.approved');
    expect(audit.body.data[0]).toMatchObject({
      actor: { type: 'host', id: host.hostId, name: 'Grace Hopper' },
      target: { type: 'person_checkin', id: waiting.checkinId },
    });
    // The link's secret is in no log line.
    expect(JSON.stringify(harness.server.logs)).not.toContain(approve);
  });

  it('denies by the Deny link, with a reason, and tells the host of no arrival', async () => {
    await requireApproval();
    const host = await addHost({ name: 'Grace', email: 'grace@example.com' });
    const waiting = await checkIn({ person: { firstName: 'Eve', lastName: 'Dropper' }, hostId: host.hostId });
    const [email] = await mail.waitFor(1);
    const deny = linkToken(email?.mail.text ?? '', 'Deny');
    const anyone = apiClient(harness.server.baseUrl);
    const decided = await anyone.post<{ status: string }>('/v1/host-decisions', {
      token: deny,
      reason: 'Not expected',
    });
    expect(decided.body.status).toBe('STOP');
    const read = await harness.world.api.get<PersonCheckin>(`${people()}/${waiting.checkinId}`);
    expect(read.body).toMatchObject({ status: 'STOP', denyReason: 'Not expected', decidedBy: { type: 'host' } });
    await settle();
    expect(mail.received).toHaveLength(1);
  });

  it('a link of a visit staff decided first no longer decides (409)', async () => {
    await requireApproval();
    const host = await addHost({ name: 'Grace', email: 'grace@example.com' });
    const waiting = await checkIn({ person: { firstName: 'Ada', lastName: 'Late' }, hostId: host.hostId });
    const [email] = await mail.waitFor(1);
    const approve = linkToken(email?.mail.text ?? '', 'Approve');
    expect((await harness.world.api.post(`${people()}/${waiting.checkinId}/deny`, {})).status).toBe(200);
    const late = await apiClient(harness.server.baseUrl).post<{ code: string }>('/v1/host-decisions', {
      token: approve,
    });
    expect(late.status).toBe(409);
    expect(late.body.code).toBe('NOT_PENDING');
  });
});

describe("in the host's language", () => {
  it('tells a German host by email in German, and an Arabic host by email and chat in Arabic, right to left', async () => {
    await requireApproval();
    const german = await addHost({ name: 'Grete', email: 'grete@example.com', language: 'de' });
    const arabic = await addHost({
      name: 'Layla',
      email: 'layla@example.com',
      notifyBy: ['email', 'chat'],
      chatWebhookUrl: chat.slackUrl('layla'),
      language: 'ar',
    });
    await checkIn({ person: { firstName: 'Ada', lastName: 'Lovelace', company: 'ACME' }, hostId: german.hostId });
    await checkIn({ person: { firstName: 'Alan', lastName: 'Turing' }, hostId: arabic.hostId });
    await mail.waitFor(2);
    const [post] = await chat.waitFor(1);
    const to = (address: string) => mail.received.find((item) => item.to.includes(address))?.mail;

    const inGerman = to('grete@example.com');
    expect(inGerman?.subject).toMatch(/^Ada Lovelace \(ACME\) wartet am Standort .+ auf Ihre Freigabe$/);
    expect(inGerman?.headers.get('content-language')).toBe('de');
    // The one-time links keep their labels' words in the plain text, so a host can tell them apart.
    expect(inGerman?.text).toMatch(/Freigeben: http:\/\/\S+\/console\/decide#/);
    expect(inGerman?.text).toMatch(/Ablehnen: http:\/\/\S+\/console\/decide#/);
    // The page the link opens is told the host's language, so it speaks it too.
    const anyone = apiClient(harness.server.baseUrl);
    const preview = await anyone.post<HostDecisionPreview>('/v1/host-decisions/preview', {
      token: linkToken(inGerman?.text ?? '', 'Freigeben'),
    });
    expect(preview.status, preview.text).toBe(200);
    expect(preview.body).toMatchObject({ action: 'approve', hostName: 'Grete', language: 'de' });

    const inArabic = to('layla@example.com');
    expect(inArabic?.subject).toMatch(/^Alan Turing بانتظار موافقتك في /);
    expect(inArabic?.headers.get('content-language')).toBe('ar');
    expect(inArabic?.html).toContain('<html lang="ar" dir="rtl">');
    expect(inArabic?.html).toContain('>موافقة</a>');
    const slack = post?.body as { text: string };
    expect(slack.text).toContain('تم تسجيل وصول Alan Turing إلى');
  });
});

describe('email off', () => {
  it('says so, and an email notification fails at once with why (nothing pretends to send)', async () => {
    const channels = await harness.world.api.get<NotificationChannels>('/v1/notifications/channels');
    expect(channels.body.email).toEqual({ enabled: false, detail: 'Email is off: the server has no SMTP_URL' });
    await notifier.stop();
    notifier = startTestNotifier(harness.server);
    try {
      const host = await addHost({ name: 'Grace', email: 'grace@example.com' });
      const created = await checkIn(visitor('Ada', 'Lovelace', { hostId: host.hostId }));
      const [failed] = await waitForNotifications(harness.world.api, created.checkinId, (items) =>
        items.some((item) => item.status === 'failed'),
      );
      expect(failed?.attempts.map((attempt) => attempt.error)).toEqual(['Email is off: this server has no SMTP_URL']);
      expect(failed?.sentAt).toBeNull();
      expect(mail.received).toHaveLength(0);
    } finally {
      await notifier.stop();
      notifier = startTestNotifier(harness.server, { smtpUrl: mail.url });
    }
  });
});
