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
import { readEverything } from './liveReads';
import { type VisitKind, isShown, stepFor } from './liveSteps';
import { followLive } from './followLive';

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
  /** Reads everything now (after an action), instead of waiting for its event. */
  refresh: () => void;
}

const LiveContext = createContext<Live | null>(null);

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

/** While a host's notification is still being sent, asked again this often (sending publishes no event). */
const PENDING_NOTIFICATION_MS = 2_000;

/** A task that runs one at a time: asked while running, it runs once more when it ends (a burst costs two runs). */
function coalesced(task: () => Promise<void>) {
  let running = false;
  let again = false;
  const run = async (): Promise<void> => {
    if (running) {
      again = true;
      return;
    }
    running = true;
    try {
      do {
        again = false;
        await task();
      } while (again);
    } finally {
      running = false;
    }
  };
  return { run, busy: () => running };
}

/**
 * The one copy behind every live view (on site now, approvals, alerts and the navigation's count). Read
 * whole at start and on the stream's `reset`; then each event of `GET /v1/events` changes the one visit it
 * names (docs/event-stream-clients.md); while the stream is down, read whole every 30 s.
 */
export function LiveProvider({ children }: { children: ReactNode }) {
  const { can, signedOut } = useSession();
  const [state, setState] = useState<LiveState>(initial);
  // The copy itself, changed synchronously so that events of one burst each see what the one before did.
  const copy = useRef<LiveState>(initial);
  const change = useCallback((next: Partial<LiveState>) => {
    copy.current = { ...copy.current, ...next };
    setState(copy.current);
  }, []);

  const failed = useCallback(
    (outcome: HttpOutcome<unknown>): boolean => {
      if (outcome.kind === 'ok') return false;
      if (outcome.kind === 'refused' && outcome.status === 401) signedOut();
      else if (outcome.kind !== 'notModified') change({ error: failureWords(outcome) });
      return true;
    },
    [change, signedOut],
  );

  const pendingTimer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const notifications = useCallback(
    async (people: readonly PersonCheckinAnswer[], replace: boolean) => {
      const read = await hostNotificationsOf(people);
      const merged = replace ? read : new Map([...copy.current.hostNotifications, ...read]);
      change({ hostNotifications: merged });
      const pending = copy.current.people.filter((checkin) =>
        (merged.get(checkin.checkinId) ?? []).some((item) => item.status === 'pending'),
      );
      clearTimeout(pendingTimer.current);
      if (pending.length > 0)
        pendingTimer.current = setTimeout(() => void notifications(pending, false), PENDING_NOTIFICATION_MS);
    },
    [change],
  );

  const lastReadAll = useRef(0);
  const readAllTask = useRef((): Promise<void> => Promise.resolve());
  readAllTask.current = async () => {
    lastReadAll.current = Date.now();
    const [sites, people, vehicles, alerts] = await readEverything(can.alerts);
    const outcomes = [sites, people, vehicles, alerts].filter((outcome) => outcome !== null);
    const failure = outcomes.find((outcome) => outcome.kind !== 'ok');
    if (failure && failure.kind === 'refused' && failure.status === 401) {
      signedOut();
      return;
    }
    const previous = copy.current;
    change({
      sites: sites.kind === 'ok' ? sites.value.data : previous.sites,
      people: people.kind === 'ok' ? people.value.data : previous.people,
      vehicles: vehicles.kind === 'ok' ? vehicles.value.data : previous.vehicles,
      alerts: alerts?.kind === 'ok' ? alerts.value.data : previous.alerts,
      unacknowledged: alerts?.kind === 'ok' ? alerts.value.unacknowledged : previous.unacknowledged,
      error: failure && failure.kind !== 'notModified' ? failureWords(failure) : null,
    });
    if (people.kind === 'ok') await notifications(people.value.data, true);
  };
  const readAlertsTask = useRef((): Promise<void> => Promise.resolve());
  readAlertsTask.current = async () => {
    const outcome = await staffApi.listAlerts();
    if (!failed(outcome) && outcome.kind === 'ok')
      change({ alerts: outcome.value.data, unacknowledged: outcome.value.unacknowledged });
  };
  // Stable across renders (they hold whether a reading is under way); each runs the render's latest task.
  const everything = useRef(coalesced(() => readAllTask.current()));
  const alerts = useRef(coalesced(() => readAlertsTask.current()));

  const removeVisit = useCallback(
    (kind: VisitKind, checkinId: number) => {
      if (kind === 'person')
        change({ people: copy.current.people.filter((checkin) => checkin.checkinId !== checkinId) });
      else change({ vehicles: copy.current.vehicles.filter((checkin) => checkin.checkinId !== checkinId) });
    },
    [change],
  );

  // The newest read asked of each visit: an older answer that comes back later is dropped.
  const reads = useRef(new Map<string, number>());
  const readVisit = useCallback(
    async (kind: VisitKind, siteId: number, checkinId: number) => {
      const key = `${kind}:${checkinId}`;
      const mine = (reads.current.get(key) ?? 0) + 1;
      reads.current.set(key, mine);
      const outcome =
        kind === 'person' ? await api.getPerson(siteId, checkinId) : await api.getVehicle(siteId, checkinId);
      if (reads.current.get(key) !== mine) return;
      reads.current.delete(key);
      if (outcome.kind === 'refused' && outcome.status === 404) return removeVisit(kind, checkinId);
      if (failed(outcome) || outcome.kind !== 'ok') return;
      const visit = outcome.value;
      if (!isShown(kind, visit.status)) return removeVisit(kind, checkinId);
      if ('person' in visit) {
        const others = copy.current.people.filter((checkin) => checkin.checkinId !== checkinId);
        change({ people: [...others, visit], error: null });
        if (visit.hostId !== null) await notifications([visit], false);
      } else {
        const others = copy.current.vehicles.filter((checkin) => checkin.checkinId !== checkinId);
        change({ vehicles: [...others, visit], error: null });
      }
    },
    [change, failed, notifications, removeVisit],
  );

  useEffect(() => {
    const held = (kind: VisitKind, checkinId: number) =>
      (kind === 'person' ? copy.current.people : copy.current.vehicles).find(
        (checkin) => checkin.checkinId === checkinId,
      )?.status;
    const readAll = () => void everything.current.run();
    const following = followLive({
      readAll,
      onSignedOut: signedOut,
      onEvent: (message, connectedAt) => {
        const step = stepFor(message, held);
        // A reading of everything under way (or due) already brings this change.
        if (everything.current.busy() && step.do !== 'nothing') return readAll();
        if (step.do === 'readAll') {
          // The first reading, made when the page opened, is this connection's: no need to read twice.
          if (lastReadAll.current < connectedAt) readAll();
        } else if (step.do === 'readAlerts') {
          if (can.alerts) void alerts.current.run();
        } else if (step.do === 'remove') removeVisit(step.kind, step.checkinId);
        else if (step.do === 'readVisit') void readVisit(step.kind, step.siteId, step.checkinId);
      },
    });
    readAll();
    return () => {
      following.stop();
      clearTimeout(pendingTimer.current);
    };
  }, [can.alerts, readVisit, removeVisit, signedOut]);

  const refresh = useCallback(() => void everything.current.run(), []);
  return <LiveContext.Provider value={{ ...state, refresh }}>{children}</LiveContext.Provider>;
}
