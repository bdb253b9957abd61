import { page } from '../../../../shared/src/schemas/common';
import {
  HostDecisionPreview,
  HostDecisionPreviewRequest,
  HostDecisionRequest,
  HostDecisionResult,
  Notification,
  NotificationChannels,
  NotificationListQuery,
} from '../../../../shared/src/schemas/notifications';
import { previewHostDecision, redeemHostDecision } from '../../commands/hostDecision';
import { emailStatus } from '../../notifications/senderFromEnv';
import { listNotifications } from '../../queries/notificationList';
import { defineRoute } from '../define';

const tag = 'Notifications';
const token = 'GcqjQfJ1V0g5oQm3Y9bX2Kx7tN4uRz8aLpW6eHdS1vE';
const notificationExample = {
  notificationId: 12,
  checkinId: 42,
  hostId: 7,
  channel: 'email',
  event: 'arrived',
  status: 'sent',
  attempts: [{ at: '2026-11-21T09:00:01.250Z', error: null }],
  sentAt: '2026-11-21T09:00:01.250Z',
} as const;
const linkRule =
  'The token is the part after `#` of an Approve or Deny link of a waiting visitor’s message (sent in the body, never in a URL, so no log holds it). Unknown, used, expired (24 h) or of a deleted host: 404. The visit decided already (by anyone): 409 NOT_PENDING.';

export const notificationRoutes = [
  defineRoute({
    method: 'GET',
    path: '/notifications',
    summary: 'What hosts were told about visits (email, chat), newest first',
    description:
      "One notification per visit, event (`arrived`: the visit became IN; `waiting`: it was created PENDING) and channel of its host, with every attempt (`error` null for the one that sent it). `status`: `pending` (being sent, or retried with backoff), `sent`, or `failed` (after 24 h of retries, or at once when it cannot succeed: email off, a refused address, a deleted host). `checkinId`: those of one check-in, or of several (comma-separated, at most 100). Only visits of sites the caller can view; another's is as if it had none.",
    examples: { query: { checkinId: '42' }, response: { data: [notificationExample], nextCursor: null } },
    tag,
    auth: 'token',
    scope: 'checkins:read',
    query: NotificationListQuery,
    responses: { 200: page(Notification) },
    handler: async ({ db, principal, query }) => ({
      status: 200,
      body: await listNotifications(db, principal, {
        checkinIds: query.checkinId,
        limit: query.limit,
        cursor: query.cursor,
      }),
    }),
  }),
  defineRoute({
    method: 'GET',
    path: '/notifications/channels',
    summary: 'Whether this server can tell hosts by email and by chat',
    description:
      'Email is on when the server runs with SMTP_URL (and MAIL_FROM); `detail` says the sender, or why it is off. Chat needs nothing of the server: each host has its own webhook URL.',
    examples: {
      response: {
        email: { enabled: true, detail: 'Sent from Gatehouse <gatehouse@example.com>' },
        chat: { enabled: true, detail: 'Slack incoming webhooks and Microsoft Teams workflows' },
      },
    },
    tag,
    auth: 'token',
    scope: 'checkins:read',
    responses: { 200: NotificationChannels },
    handler: ({ deps }) =>
      Promise.resolve({
        status: 200,
        body: {
          email: emailStatus(deps.env),
          chat: { enabled: true, detail: 'Slack incoming webhooks and Microsoft Teams workflows' },
        },
      }),
  }),
  defineRoute({
    method: 'POST',
    path: '/host-decisions/preview',
    summary: 'What an Approve or Deny link of a host’s message would decide (no sign-in)',
    description: `Changes nothing: the visitor, site and time the link is about, and whether it approves or denies, for the page to ask the host to confirm. ${linkRule}`,
    examples: {
      request: { token },
      response: {
        action: 'approve',
        hostName: 'Grace Hopper',
        visitor: { firstName: 'Ada', lastName: 'Lovelace', company: 'ACME' },
        siteName: 'Head office',
        timezone: 'Europe/Berlin',
        arrivedAt: '2026-11-21T09:00:00.000Z',
        expiresAt: '2026-11-22T09:00:00.000Z',
        language: 'de',
      },
    },
    tag,
    auth: 'none',
    readOnly: true,
    body: HostDecisionPreviewRequest,
    responses: { 200: HostDecisionPreview },
    conflict: { codes: ['NOT_PENDING: the visit was decided already'] },
    handler: async ({ db, body, now }) => ({ status: 200, body: await previewHostDecision(db, body.token, now) }),
  }),
  defineRoute({
    method: 'POST',
    path: '/host-decisions',
    summary: 'Approve or deny a waiting visitor by a host’s one-time link (no sign-in)',
    description: `Decides the visit as the link says: approve (PENDING → IN; the host is then told of the arrival like after any approval) or deny (PENDING → STOP, with \`reason\` if given). Records \`decidedBy: {type: "host", id, name}\` and an audit entry with the host as actor, and uses up every link of the visit: a link works once. ${linkRule}`,
    examples: {
      request: { token },
      response: { checkinId: 42, status: 'IN', decidedAt: '2026-11-21T09:03:00.000Z' },
    },
    tag,
    auth: 'none',
    body: HostDecisionRequest,
    responses: { 200: HostDecisionResult },
    conflict: { codes: ['NOT_PENDING: the visit was decided already'] },
    handler: async ({ db, body, now, requestId }) => ({
      status: 200,
      body: await redeemHostDecision(db, { token: body.token, reason: body.reason, now, requestId }),
    }),
  }),
];
