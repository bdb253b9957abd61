import type { FetchLike } from '../../../shared/src/client/http';
import type { StreamMessage } from '../../../shared/src/client/eventStream';
import { type FollowState, followEvents } from '../../../shared/src/client/followEvents';
import { CheckinEvent } from '../../../shared/src/schemas/events';
import type { KioskDatabase } from '../data/database';

export interface SiteEventsOptions {
  serverUrl: string;
  token: string;
  fetch: FetchLike;
  db: KioskDatabase;
  siteId: number;
  mode: 'visitor' | 'gate';
  /** A change the kiosk shows happened on the server: pull now (the engine coalesces a burst). */
  pullSoon: () => void;
  onState?: (state: FollowState) => void;
  /** With nothing received for this long the connection is taken for dead (tests shorten it). */
  silenceMs?: number;
}

const parse = (data: string): unknown => {
  try {
    return JSON.parse(data);
  } catch {
    return undefined;
  }
};

/**
 * Whether a visit's event brings nothing new: the kiosk already holds that status (the answer to its own write
 * put it there), or the visit left and the kiosk does not hold it. An erasure always needs a pull.
 */
async function isEcho(db: KioskDatabase, event: CheckinEvent): Promise<boolean> {
  if (event.anonymized) return false;
  const table = event.kind === 'person' ? db.people : db.vehicles;
  const held = await table.where('serverId').equals(event.checkinId).first();
  return held ? held.status === event.status : event.status === 'OUT';
}

/**
 * Follows the server's event stream for the kiosk's site (docs/event-stream-clients.md) and asks the engine
 * for a pull when something the kiosk shows changed: the site's people (visitor) or vehicles (gate), and at
 * every `reset` (the first connection, or one away too long). What it ignores the 5-minute pull still brings.
 */
export function followSiteEvents(options: SiteEventsOptions): { stop: () => void } {
  const { db, siteId, mode } = options;
  const onEvent = (message: StreamMessage) => {
    if (message.event === 'reset') {
      options.pullSoon();
      return;
    }
    const data = parse(message.data);
    if (mode === 'gate' && message.event === 'vehicles') {
      options.pullSoon();
      return;
    }
    if (message.event !== 'checkin') return;
    const event = CheckinEvent.safeParse(data);
    if (!event.success || event.data.siteId !== siteId) return;
    if (event.data.kind !== (mode === 'gate' ? 'vehicle' : 'person')) return;
    void isEcho(db, event.data)
      .catch(() => false)
      .then((echo) => {
        if (!echo) options.pullSoon();
      });
  };
  return followEvents({
    url: `${options.serverUrl.replace(/\/$/, '')}/v1/events`,
    // EventSource cannot send a bearer token, and a token never goes in a URL: fetch with the header.
    headers: { Authorization: `Bearer ${options.token}` },
    fetch: (url, init) =>
      options.fetch(typeof url === 'string' ? url : url instanceof URL ? url.href : url.url, init ?? {}),
    onEvent,
    onState: options.onState,
    silenceMs: options.silenceMs,
  });
}
