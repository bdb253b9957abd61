import type { ApiClient } from '../../../shared/src/client';
import type { FetchLike } from '../../../shared/src/client/http';
import type { StreamMessage } from '../../../shared/src/client/eventStream';
import { type FollowState, followEvents } from '../../../shared/src/client/followEvents';
import { CheckinEvent, VehiclesEvent } from '../../../shared/src/schemas/events';
import type { KioskDatabase } from '../data/database';
import type { Pairing } from '../data/settings';
import { isCreate } from '../data/types';
import { VEHICLE_DIRECTORY_CURSOR } from '../data/vehicleDirectory';
import { actionsOf } from '../data/visits';
import type { Clock } from '../platform/platform';
import { rereadVehicleVisit } from './vehicleReread';

export interface SiteEventsOptions {
  serverUrl: string;
  token: string;
  fetch: FetchLike;
  db: KioskDatabase;
  /** The gate re-reads the one visit an event names through it. */
  api: ApiClient;
  siteId: number;
  mode: 'visitor' | 'gate';
  pairing?: Pairing;
  /** The device's own clock (what `syncedAt` is kept by), and its timers. */
  now: () => number;
  clock: Pick<Clock, 'setTimer'>;
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
 * How far along its life a vehicle visit is: a visit never goes back, so an event of a stage before the one the
 * gate holds is the late echo of an earlier write (its own Entry's PENDING arriving after its Admit).
 */
const vehicleStage: Record<string, number> = { PENDING: 0, IN: 1, STOP: 1, OUT: 2 };
const isBehind = (event: string, held: string) =>
  event in vehicleStage && held in vehicleStage && (vehicleStage[event] ?? 0) < (vehicleStage[held] ?? 0);

/** How long an event of a visit the kiosk does not know waits for the answers to its own creates. */
const ECHO_WAIT_MS = 200;
const ECHO_WAITS = 10;

/**
 * Whether a visit's event brings nothing new (`echo`): the kiosk already holds that status (the answer to its
 * own write put it there), or an earlier stage of a vehicle visit than the one it holds, or the visit left and
 * the kiosk does not hold it, or the kiosk still owes the server actions of that visit (the outbox wins until it
 * is synced: their answers bring the server's word, in order).
 * `unsure`: a visit it does not hold while a create of its own is still queued, which may be that visit (the
 * event can come before the create's answer is written). An erasure always needs a read.
 */
function echoOf(db: KioskDatabase, siteId: number, event: CheckinEvent): Promise<'echo' | 'news' | 'unsure'> {
  if (event.anonymized) return Promise.resolve('news');
  const table = event.kind === 'person' ? db.people : db.vehicles;
  // One transaction: a create's answer written between two reads would look like no visit and no create.
  return db.transaction('r', [table, db.outbox], async () => {
    const held = await table.where('serverId').equals(event.checkinId).first();
    if (held) {
      if (held.status === event.status || (event.kind === 'vehicle' && isBehind(event.status, held.status)))
        return 'echo';
      return (await actionsOf(db, held.visitId)).length > 0 ? 'echo' : 'news';
    }
    if (event.status === 'OUT') return 'echo';
    const creating = (await db.outbox.toArray()).some(
      (action) => action.siteId === siteId && action.state === 'QUEUED' && isCreate(action.kind),
    );
    return creating ? 'unsure' : 'news';
  });
}

/** Whether the vehicle feed's position the event names is not the one the gate's copy has come to. */
async function directoryBehind(db: KioskDatabase, data: unknown): Promise<boolean> {
  const event = VehiclesEvent.safeParse(data);
  if (!event.success) return true;
  return (await db.meta.get(VEHICLE_DIRECTORY_CURSOR))?.value !== event.data.cursor;
}

/**
 * Follows the server's event stream for the kiosk's site (docs/event-stream-clients.md) and keeps what the kiosk
 * shows in step: the visitor kiosk pulls its people feed when a person visit changed; the gate re-reads the one
 * vehicle visit an event names, and pulls when the account's vehicles moved past its copy; both pull at every
 * `reset` (the first connection, or one away too long). What it ignores the 5-minute pull still brings.
 */
export function followSiteEvents(options: SiteEventsOptions): { stop: () => void } {
  const { db, siteId, mode } = options;
  const wait = (ms: number) => new Promise<void>((resolve) => options.clock.setTimer(ms, resolve));
  /** Whether the event needs a read; an unsure one waits a little for the kiosk's own creates to be answered. */
  const isNews = async (event: CheckinEvent): Promise<boolean> => {
    for (let waits = 0; ; waits += 1) {
      const verdict = await echoOf(db, siteId, event);
      if (verdict !== 'unsure' || waits === ECHO_WAITS) return verdict !== 'echo';
      await wait(ECHO_WAIT_MS);
    }
  };
  const reread = (checkinId: number) =>
    rereadVehicleVisit({ db, api: options.api, siteId, pairing: options.pairing, now: options.now }, checkinId)
      .catch(() => 'failed' as const)
      .then((result) => {
        // What the one read could not bring (no answer, a visit gone from the kiosk's window), the pull brings.
        if (result === 'failed') options.pullSoon();
      });
  const onEvent = (message: StreamMessage) => {
    if (message.event === 'reset') {
      options.pullSoon();
      return;
    }
    const data = parse(message.data);
    if (mode === 'gate' && message.event === 'vehicles') {
      void directoryBehind(db, data)
        .catch(() => true)
        .then((behind) => {
          if (behind) options.pullSoon();
        });
      return;
    }
    if (message.event !== 'checkin') return;
    const event = CheckinEvent.safeParse(data);
    if (!event.success || event.data.siteId !== siteId) return;
    if (event.data.kind !== (mode === 'gate' ? 'vehicle' : 'person')) return;
    const { checkinId } = event.data;
    void isNews(event.data)
      .catch(() => true)
      .then((news) => {
        if (!news) return;
        if (mode === 'gate') void reread(checkinId);
        else options.pullSoon();
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
