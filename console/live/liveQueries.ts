import type { PersonCheckinAnswer, VehicleCheckinAnswer } from '../../shared/src/client';
import type { NotificationAnswer } from '../../shared/src/client/hosts';
import type { HttpOutcome } from '../../shared/src/client/http';
import type { AlertAnswer } from '../../shared/src/client/staff';
import type { Site } from '../../shared/src/schemas/sites';
import { api, staffApi } from '../api';
import { hostNotificationsOf } from './hostNotifications';

/** The live views' entries in the query cache; `all` invalidates every one (a `reset`, the fallback poll). */
export const liveKeys = {
  all: ['live'],
  sites: ['live', 'sites'],
  visits: ['live', 'visits'],
  alerts: ['live', 'alerts'],
} as const;

/** Who is on the user's sites, and what their hosts were told (by check-in id, docs/notifications.md). */
export interface Visits {
  people: PersonCheckinAnswer[];
  vehicles: VehicleCheckinAnswer[];
  hostNotifications: Map<number, NotificationAnswer[]>;
}

export interface Alerts {
  data: AlertAnswer[];
  unacknowledged: number;
}

/** A read that did not work: what came back (console/words.ts says it in words), and whether the session ended (401). */
export class ReadFailure extends Error {
  readonly signedOut: boolean;
  constructor(readonly outcome: Exclude<HttpOutcome<unknown>, { kind: 'ok' }>) {
    // The message is for logs; the screen says readFailureWords (console/words.ts).
    super(`read failed: ${outcome.kind}`);
    this.signedOut = outcome.kind === 'refused' && outcome.status === 401;
  }
}

/** The answer of a read, or a ReadFailure thrown (the cache keeps the last good value on screen). */
export function answerOf<T>(outcome: HttpOutcome<T>): T {
  if (outcome.kind === 'ok') return outcome.value;
  throw new ReadFailure(outcome);
}

/** 2,000 people or vehicles: more than the busiest site holds at once. */
const MAX_PAGES = 10;

/** Every page of a search (up to MAX_PAGES). */
async function allPages<T>(
  search: (cursor?: string) => Promise<HttpOutcome<{ data: T[]; nextCursor: string | null }>>,
): Promise<T[]> {
  const rows: T[] = [];
  let cursor: string | undefined;
  for (let page = 0; page < MAX_PAGES; page++) {
    const { data, nextCursor } = answerOf(await search(cursor));
    rows.push(...data);
    if (nextCursor === null) break;
    cursor = nextCursor;
  }
  return rows;
}

export const readSites = async (): Promise<Site[]> => answerOf(await api.listSites()).data;

/** When the last reading of every visit began: a stream's `reset` after it needs no second one. */
export const visitsRead = { at: 0 };

/**
 * Every visit the live views show, read whole: at start, on the stream's `reset`, and on the fallback poll
 * while the stream is down (docs/event-stream-clients.md). Between those, events change one visit each.
 */
export async function readVisits(): Promise<Visits> {
  visitsRead.at = Date.now();
  const [people, vehicles] = await Promise.all([
    allPages((cursor) => api.searchPeople({ status: ['IN', 'ON_BREAK', 'PENDING'], limit: 200, cursor })),
    allPages((cursor) => api.searchVehicles({ status: ['IN', 'PENDING'], limit: 200, cursor })),
  ]);
  return { people, vehicles, hostNotifications: await hostNotificationsOf(people) };
}

export const readAlerts = async (): Promise<Alerts> => answerOf(await staffApi.listAlerts());
