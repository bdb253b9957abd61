import { createContext, type ReactNode, useCallback, useContext, useEffect, useRef, useState } from 'react';
import type { PersonCheckinAnswer, VehicleCheckinAnswer } from '../../shared/src/client';
import type { HttpOutcome } from '../../shared/src/client/http';
import type { AlertAnswer } from '../../shared/src/client/staff';
import type { Site } from '../../shared/src/schemas/sites';
import { api, staffApi } from '../api';
import { useSession } from '../session/SessionContext';
import { failureWords } from '../words';
import type { NotificationAnswer } from '../../shared/src/client/hosts';
import { hostNotificationsOf } from './hostNotifications';

/** How often the live views ask the server: a change anywhere shows within this (plus one request). */
export const POLL_MS = 3_000;

export interface LiveState {
  /** Null until the first answer. */
  sites: Site[] | null;
  people: PersonCheckinAnswer[];
  vehicles: VehicleCheckinAnswer[];
  alerts: AlertAnswer[];
  unacknowledged: number;
  /** What the hosts of the people on site were told, by check-in id (docs/notifications.md). */
  hostNotifications: Map<number, NotificationAnswer[]>;
  /** Why the last refresh failed, in plain words; null when it worked. */
  error: string | null;
}

interface Live extends LiveState {
  /** Asks now (after an action), instead of waiting for the next tick. */
  refresh: () => void;
}

const LiveContext = createContext<Live | null>(null);

/** 2,000 people or vehicles: more than the busiest site holds at once. */
const MAX_PAGES = 10;

/** Every page of a search (up to MAX_PAGES), as one outcome: the first failure, or all the rows. */
async function allPages<T>(
  search: (cursor?: string) => Promise<HttpOutcome<{ data: T[]; nextCursor: string | null }>>,
) {
  const rows: T[] = [];
  let cursor: string | undefined;
  for (let page = 0; page < MAX_PAGES; page++) {
    const outcome = await search(cursor);
    if (outcome.kind !== 'ok') return outcome;
    rows.push(...outcome.value.data);
    if (outcome.value.nextCursor === null) break;
    cursor = outcome.value.nextCursor;
  }
  return { kind: 'ok' as const, value: { data: rows } };
}

export function useLive(): Live {
  const live = useContext(LiveContext);
  if (!live) throw new Error('useLive outside LiveProvider');
  return live;
}

const initial: LiveState = {
  sites: null,
  people: [],
  vehicles: [],
  alerts: [],
  unacknowledged: 0,
  hostNotifications: new Map(),
  error: null,
};

/**
 * The one poller behind every live view (on site now, approvals, alerts and the navigation's count): each
 * tick reads who is on site and the alerts of the user's sites, and every screen renders from that.
 */
export function LiveProvider({ children }: { children: ReactNode }) {
  const { can, signedOut } = useSession();
  const [state, setState] = useState<LiveState>(initial);
  const running = useRef(false);
  const again = useRef(false);

  const load = useCallback(async () => {
    if (running.current) {
      again.current = true;
      return;
    }
    running.current = true;
    try {
      do {
        again.current = false;
        const [sites, people, vehicles, alerts] = await Promise.all([
          api.listSites(),
          allPages((cursor) => api.searchPeople({ status: ['IN', 'ON_BREAK', 'PENDING'], limit: 200, cursor })),
          allPages((cursor) => api.searchVehicles({ status: ['IN', 'PENDING'], limit: 200, cursor })),
          can.alerts ? staffApi.listAlerts() : Promise.resolve(null),
        ]);
        const failed = [sites, people, vehicles, alerts].find((outcome) => outcome !== null && outcome.kind !== 'ok');
        if (failed && failed.kind === 'refused' && failed.status === 401) {
          signedOut();
          return;
        }
        const hostNotifications = people.kind === 'ok' ? await hostNotificationsOf(people.value.data) : null;
        setState((previous) => ({
          sites: sites.kind === 'ok' ? sites.value.data : previous.sites,
          people: people.kind === 'ok' ? people.value.data : previous.people,
          vehicles: vehicles.kind === 'ok' ? vehicles.value.data : previous.vehicles,
          alerts: alerts?.kind === 'ok' ? alerts.value.data : previous.alerts,
          unacknowledged: alerts?.kind === 'ok' ? alerts.value.unacknowledged : previous.unacknowledged,
          hostNotifications: hostNotifications ?? previous.hostNotifications,
          error: failed && failed.kind !== 'notModified' ? failureWords(failed) : null,
        }));
      } while (again.current);
    } finally {
      running.current = false;
    }
  }, [can.alerts, signedOut]);

  useEffect(() => {
    void load();
    // A console left open in a background tab asks nothing, and catches up the moment it is shown again.
    const tick = () => {
      if (document.visibilityState !== 'hidden') void load();
    };
    const timer = setInterval(tick, POLL_MS);
    document.addEventListener('visibilitychange', tick);
    return () => {
      clearInterval(timer);
      document.removeEventListener('visibilitychange', tick);
    };
  }, [load]);

  const refresh = useCallback(() => void load(), [load]);
  return <LiveContext.Provider value={{ ...state, refresh }}>{children}</LiveContext.Provider>;
}
