import { type ChatFormat, chatFormatOf } from '../../../../shared/src/domain/hostNotifications';
import { type Sender, createSender } from '../../webhooks/sender';
import { type RenderedMessage, plainText } from '../messages/rendered';
import { MAX_ERROR_LENGTH, type SendOutcome } from './outcome';

/** Slack's mrkdwn needs only these escaped (https://api.slack.com/reference/surfaces/formatting#escaping). */
const slackEscape = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** A Slack incoming webhook's body: Block Kit, with `text` as the notification's fallback. */
export function slackBody(message: RenderedMessage): unknown {
  const blocks: unknown[] = [
    { type: 'section', text: { type: 'mrkdwn', text: `*${slackEscape(message.subject)}*` } },
    ...message.paragraphs.map((text) => ({ type: 'section', text: { type: 'mrkdwn', text: slackEscape(text) } })),
  ];
  if (message.actions.length > 0) {
    blocks.push({
      type: 'actions',
      elements: message.actions.map((action) => ({
        type: 'button',
        text: { type: 'plain_text', text: action.label },
        url: action.url,
        style: action.style,
      })),
    });
  }
  if (message.note) blocks.push({ type: 'context', elements: [{ type: 'mrkdwn', text: slackEscape(message.note) }] });
  return { text: plainText(message), blocks };
}

/** A Teams workflow's body ("Post to a channel when a webhook request is received"): an Adaptive Card message. */
export function teamsBody(message: RenderedMessage): unknown {
  return {
    type: 'message',
    attachments: [
      {
        contentType: 'application/vnd.microsoft.card.adaptive',
        contentUrl: null,
        content: {
          $schema: 'http://adaptivecards.io/schemas/adaptive-card.json',
          type: 'AdaptiveCard',
          version: '1.4',
          body: [
            { type: 'TextBlock', text: message.subject, weight: 'Bolder', size: 'Medium', wrap: true },
            ...message.paragraphs.map((text) => ({ type: 'TextBlock', text, wrap: true })),
            ...(message.note
              ? [{ type: 'TextBlock', text: message.note, isSubtle: true, size: 'Small', wrap: true }]
              : []),
          ],
          actions: message.actions.map((action) => ({
            type: 'Action.OpenUrl',
            title: action.label,
            url: action.url,
            style: action.style === 'primary' ? 'positive' : 'destructive',
          })),
        },
      },
    ],
  };
}

const bodies: Record<ChatFormat, (message: RenderedMessage) => unknown> = { slack: slackBody, teams: teamsBody };

/** Answers that say the URL is wrong for good (deleted webhook, archived channel): no point trying for a day. */
const PERMANENT = new Set([400, 401, 403, 404, 410]);

export interface ChatTransport {
  send: (url: string, message: RenderedMessage) => Promise<SendOutcome>;
  close: () => Promise<void>;
}

/**
 * Chat messages posted to a Slack incoming webhook or a Teams workflow URL, each in its own format, through
 * the webhook sender: the same address policy (docs/webhooks.md: a public address unless
 * WEBHOOK_ALLOW_PRIVATE_URLS, checked on every connection), no redirects, 10 s.
 */
export function createChatTransport(options: { allowPrivateUrls: boolean; timeoutMs?: number }): ChatTransport {
  const sender: Sender = createSender({
    allowPrivateUrls: options.allowPrivateUrls,
    timeoutMs: options.timeoutMs ?? 10_000,
    connectionsPerOrigin: 4,
  });
  return {
    async send(url, message) {
      const format = chatFormatOf(url);
      if (!format) return { ok: false, error: 'Not a Slack or Teams webhook URL', permanent: true };
      const result = await sender.send({ url, headers: {}, body: JSON.stringify(bodies[format](message)) });
      if (result.statusCode !== null && result.statusCode >= 200 && result.statusCode < 300) return { ok: true };
      if (result.statusCode !== null) {
        return {
          ok: false,
          error: `The chat service answered ${result.statusCode}`,
          permanent: PERMANENT.has(result.statusCode),
        };
      }
      return {
        ok: false,
        error: (result.error ?? 'The chat message could not be sent').slice(0, MAX_ERROR_LENGTH),
        permanent: false,
      };
    },
    close: () => sender.close(),
  };
}
