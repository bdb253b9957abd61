import { describe, expect, it } from 'vitest';
import { chatFormatOf, hostNotificationFor } from '../../shared/src/domain/hostNotifications';
import { EnvError, parseEnv } from '../../server/src/config/env';
import { slackBody, teamsBody } from '../../server/src/notifications/transports/chat';
import { arrivedMessage, waitingMessage } from '../../server/src/notifications/messages/hostMessages';
import { html, plainText } from '../../server/src/notifications/messages/rendered';
import { hostToldWords as toldIn } from '../../console/onSite/hostTold';
import { consoleCatalogs } from '../../shared/src/messages/console';
import { wordsOf } from '../../shared/src/messages/translator';

const facts = {
  visitor: { firstName: 'Ada', lastName: '<Lovelace>', company: 'A&B' },
  siteName: 'Head office',
  timezone: 'Asia/Tokyo',
  at: new Date('2026-11-24T00:41:00.000Z'),
};

describe('who is told of what (the pure rule)', () => {
  it('tells of an arrival and of a wait, never of a STOP, an exit or a break', () => {
    expect(hostNotificationFor('PERSON_CHECKIN_ENTERED')).toBe('arrived');
    expect(hostNotificationFor('PERSON_CHECKIN_PENDING')).toBe('waiting');
    for (const event of ['PERSON_CHECKIN_STOPPED', 'PERSON_CHECKIN_EXITED', 'PERSON_BREAK_ENDED', null])
      expect(hostNotificationFor(event)).toBeNull();
  });

  it('tells Slack and Teams URLs apart by their address, and refuses any other', () => {
    expect(chatFormatOf('https://hooks.slack.com/services/T0/B0/x')).toBe('slack');
    expect(
      chatFormatOf('https://prod-12.westeurope.logic.azure.com:443/workflows/abc/triggers/manual/paths/invoke'),
    ).toBe('teams');
    expect(
      chatFormatOf('https://default123.environment.api.powerplatform.com/powerautomate/automations/direct/workflows/1'),
    ).toBe('teams');
    expect(chatFormatOf('https://hooks.slack.com/triggers/T0/1/x')).toBeUndefined();
    expect(chatFormatOf('https://example.com/hook')).toBeUndefined();
    expect(chatFormatOf('ftp://hooks.slack.com/services/T0/B0/x')).toBeUndefined();
  });
});

describe('the messages', () => {
  it('say who, from where, at which site and when on the site’s clock, escaped for HTML and Slack', () => {
    const message = arrivedMessage('en', facts);
    expect(message.subject).toBe('Ada <Lovelace> from A&B has arrived at Head office');
    expect(plainText(message)).toBe(
      'Ada <Lovelace> from A&B arrived at Head office at Tue 24 Nov, 09:41 GMT+9 to see you.',
    );
    expect(html(message)).toContain('Ada &lt;Lovelace&gt; from A&amp;B arrived');
    expect(JSON.stringify(slackBody(message))).toContain('Ada &lt;Lovelace&gt; from A&amp;B');
  });

  it('a waiting message carries Approve and Deny as buttons and as plain links; a language without a catalog reads English', () => {
    const message = waitingMessage('pt', facts, { approve: 'https://gh.example/a', deny: 'https://gh.example/d' });
    expect(message.language).toBe('en');
    expect(plainText(message)).toContain('Approve: https://gh.example/a\nDeny: https://gh.example/d');
    const teams = teamsBody(message) as { attachments: Array<{ content: { actions: unknown[] } }> };
    expect(teams.attachments[0]?.content.actions).toEqual([
      { type: 'Action.OpenUrl', title: 'Approve', url: 'https://gh.example/a', style: 'positive' },
      { type: 'Action.OpenUrl', title: 'Deny', url: 'https://gh.example/d', style: 'destructive' },
    ]);
  });
});

describe("the host's language", () => {
  const links = { approve: 'https://gh.example/a', deny: 'https://gh.example/d' };

  it('tells a German host in German, Sie, with the time as Germans write it', () => {
    const message = waitingMessage('de', facts, links);
    expect(message.language).toBe('de');
    expect(message.subject).toBe('Ada <Lovelace> (A&B) wartet am Standort Head office auf Ihre Freigabe');
    expect(message.paragraphs[0]).toMatch(
      /^Ada <Lovelace> \(A&B\) ist am Di\., 24\. Nov\., 09:41 .+ am Standort Head office eingetroffen/,
    );
    expect(message.actions.map((action) => action.label)).toEqual(['Freigeben', 'Ablehnen']);
    expect(plainText(message)).toContain('Freigeben: https://gh.example/a\nAblehnen: https://gh.example/d');
  });

  it('writes Arabic right to left, and marks Simplified Chinese as such', () => {
    const arabic = arrivedMessage('ar', facts);
    expect(arabic.subject).toBe('وصول Ada <Lovelace> من A&B إلى Head office');
    expect(html(arabic)).toContain('<html lang="ar" dir="rtl">');
    const chinese = arrivedMessage('zh', facts);
    expect(chinese.language).toBe('zh-Hans');
    expect(chinese.paragraphs[0]).toContain('前来拜访您');
    expect(html(chinese)).toContain('dir="ltr"');
  });
});

describe('SMTP settings', () => {
  it('needs MAIL_FROM with SMTP_URL, and an smtp:// or smtps:// URL', () => {
    const refusal = (env: Record<string, string>) => {
      try {
        parseEnv(env);
        return undefined;
      } catch (error) {
        if (error instanceof EnvError) return error.message;
        throw error;
      }
    };
    expect(refusal({ SMTP_URL: 'smtp://u:p@mail.example.com:587' })).toMatch(
      /^Invalid environment variable MAIL_FROM: /,
    );
    expect(refusal({ SMTP_URL: 'https://mail.example.com', MAIL_FROM: 'a@example.com' })).toMatch(
      /^Invalid environment variable SMTP_URL: must be an smtp:\/\/ or smtps:\/\/ URL/,
    );
    expect(parseEnv({ SMTP_URL: 'smtps://u:p@mail.example.com:465', MAIL_FROM: 'G <a@example.com>' }).MAIL_FROM).toBe(
      'G <a@example.com>',
    );
  });
});

describe('"Host told" in the console', () => {
  const english = wordsOf(consoleCatalogs, 'en');
  const hostToldWords = (...args: Parameters<typeof toldIn> extends [unknown, ...infer Rest] ? Rest : never) =>
    toldIn(english, ...args);
  const visit = { hostId: 7, hostName: 'Grace', status: 'IN' };
  const sent = (channel: string, event = 'arrived') => ({
    notificationId: 1,
    checkinId: 1,
    hostId: 7,
    channel,
    event,
    status: 'sent',
    attempts: [{ at: '2026-11-24T00:41:00.000Z', error: null }],
    sentAt: '2026-11-24T00:41:00.000Z',
  });
  const now = new Date('2026-11-24T01:00:00.000Z');
  it('says when and how the host was told, or why not', () => {
    expect(hostToldWords(visit, [sent('email')], 'UTC', now)).toMatch(/^Host told [^;]+ by email$/);
    expect(hostToldWords(visit, [sent('email'), sent('chat')], 'UTC', now)).toMatch(
      /^Host told [^;]+ by email and [^;]+ by chat$/,
    );
    const off = {
      ...sent('email'),
      status: 'failed',
      sentAt: null,
      attempts: [{ at: '2026-11-24T00:41:00.000Z', error: 'Email is off: this server has no SMTP_URL' }],
    };
    expect(hostToldWords(visit, [off], 'UTC', now)).toBe('Host not told by email: email is off');
    expect(hostToldWords(visit, [], 'UTC', now)).toBe('Host not told: no email or chat set for them');
    expect(hostToldWords({ hostId: null, hostName: 'Free text', status: 'IN' }, undefined)).toBe(
      'Host not told: not in the host list',
    );
    expect(hostToldWords({ hostId: null, hostName: null, status: 'IN' }, undefined)).toBeNull();
    // A waiting visit speaks of its waiting message, not of an arrival to come.
    expect(hostToldWords({ ...visit, status: 'PENDING' }, [sent('email', 'waiting')], 'UTC', now)).toMatch(
      /^Host told/,
    );
  });
});
