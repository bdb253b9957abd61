import { EventStreamQuery, EventStreamText } from '../../../../shared/src/schemas/events';
import { sessionIdOf } from '../../auth/sessions';
import { EventStream } from '../../live/eventStream';
import { parsePosition } from '../../live/position';
import { isKioskPrincipal } from '../../policies/kioskWindow';
import { currentStreamAccess, streamAccessOf } from '../../policies/streamAccess';
import { defineRoute } from '../define';

const example = [
  'retry: 3412',
  '',
  'id: 90817-5521',
  'event: reset',
  'data: {"reason":"start"}',
  '',
  'id: 90822-5530',
  'event: checkin',
  'data: {"kind":"person","siteId":1,"checkinId":42,"status":"IN"}',
  '',
  ': keep-alive',
  '',
  '',
].join('\n');

export const eventRoutes = [
  defineRoute({
    method: 'GET',
    path: '/events',
    summary: 'Follow the changes of your sites as server-sent events',
    description:
      "A `text/event-stream` of the changes the caller may see (its account, its sites, its scopes): `checkin`, `alert`, `config`, `vehicles`, `hosts`, `invitation`; ids and states only, never names. The first event is `ready` (resumed from `Last-Event-ID`: nothing was lost) or `reset` (read afresh, then apply what follows). Each change has an `id`; reconnect with it in `Last-Event-ID` (or `?lastEventId=`) to resume without loss for at least an hour. A comment line comes every 25 s. Access is checked again every few minutes: a revoked token's stream ends. A paired kiosk's open stream marks the kiosk seen (its `lastSeenAt`). See docs/api.md, Event stream, for the protocol.",
    examples: { response: example },
    tag: 'Events',
    auth: 'token',
    query: EventStreamQuery,
    responses: { 200: EventStreamText },
    mediaType: 'text/event-stream',
    handler: async ({ db, principal, query, deps, koa }) => {
      const credentials = { authorization: koa.get('Authorization'), sessionId: sessionIdOf(koa) };
      const stream = new EventStream({
        hub: deps.liveEvents,
        access: await streamAccessOf(db, principal),
        keepAliveMs: deps.env.EVENTS_KEEPALIVE_SECONDS * 1000,
        recheckMs: deps.env.EVENTS_RECHECK_SECONDS * 1000,
        recheck: () => currentStreamAccess(deps.database, credentials),
      });
      await stream.open(db, parsePosition(koa.get('Last-Event-ID') || query.lastEventId));
      // A kiosk with its stream open is seen, without a heartbeat a minute (docs/event-stream-clients.md, Heartbeats).
      if (isKioskPrincipal(principal) && principal.tokenId !== null)
        stream.whenClosed(deps.kioskPresence.track(principal.accountId, principal.tokenId));
      return {
        status: 200,
        // No proxy may hold events back or keep a copy.
        headers: { 'Cache-Control': 'no-store', 'X-Accel-Buffering': 'no' },
        stream: { contentType: 'text/event-stream', chunks: stream },
      };
    },
  }),
];
