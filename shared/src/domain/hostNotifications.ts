/** What a host is told about (docs/notifications.md): a visitor arrived (`IN`), or waits for approval (`PENDING`). */
export const hostNotificationEvents = ['arrived', 'waiting'] as const;
export type HostNotificationEvent = (typeof hostNotificationEvents)[number];

/** The channels a host may be told on. */
export const notifyChannels = ['email', 'chat'] as const;
export type NotifyChannel = (typeof notifyChannels)[number];

/**
 * Whether a change of a visit with a host tells the host, read from the webhook event the change emits
 * (`PersonWebhookEvent`): a visit
 * that becomes `IN` by its create or its approval has arrived; one created `PENDING` waits. Nothing else
 * tells the host: never a `STOP`, nor a break's end (`IN` again, but no arrival).
 */
export function hostNotificationFor(event: string | null): HostNotificationEvent | null {
  if (event === 'PERSON_CHECKIN_ENTERED') return 'arrived';
  if (event === 'PERSON_CHECKIN_PENDING') return 'waiting';
  return null;
}

/** The two chat formats Gatehouse speaks: a Slack incoming webhook, or a Microsoft Teams workflow. */
export type ChatFormat = 'slack' | 'teams';

const TEAMS_HOSTS = [
  /\.logic\.azure\.com$/i,
  /(^|\.)powerplatform\.com$/i,
  /(^|\.)powerautomate\.com$/i,
  /^flow\.microsoft\.com$/i,
  /\.webhook\.office\.com$/i,
];

/**
 * Which format a chat webhook URL takes, from its address alone (docs/notifications.md, Chat): Slack's
 * incoming webhooks live under `/services/` (on hooks.slack.com, or a Slack-compatible server), Teams
 * workflows under `/workflows/` on Microsoft's Power Automate hosts. Undefined: neither, so it is refused.
 */
export function chatFormatOf(raw: string): ChatFormat | undefined {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return undefined;
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return undefined;
  if (url.pathname.startsWith('/services/')) return 'slack';
  if (TEAMS_HOSTS.some((host) => host.test(url.hostname)) || url.pathname.includes('/workflows/')) return 'teams';
  return undefined;
}
