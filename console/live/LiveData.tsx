import { useQuery, useQueryClient } from '@tanstack/react-query';
import { createContext, type ReactNode, useCallback, useContext, useEffect, useRef, useState } from 'react';
import type { PersonCheckinAnswer, VehicleCheckinAnswer } from '../../shared/src/client';
import type { StreamMessage } from '../../shared/src/client/eventStream';
import type { NotificationAnswer } from '../../shared/src/client/hosts';
import type { AlertAnswer } from '../../shared/src/client/staff';
import type { Site } from '../../shared/src/schemas/sites';
import { api } from '../api';
import { useSession } from '../session/SessionContext';
import { useWords } from '../language/ConsoleLanguage';
import { type Failure, failureWords, readFailureWords } from '../words';
import { followLive } from './followLive';
import { followPageEvent, readPagesAfresh } from './followPages';
import { forgetEchoes } from './ownEchoes';
import { hostNotificationsOf } from './hostNotifications';
import {
  type Alerts,
  ReadFailure,
  type Visits,
  liveKeys,
  readAlerts,
  readSites,
  readVisits,
  visitsRead,
} from './liveQueries';
import { type VisitKind, isShown, stepFor } from './liveSteps';

export interface LiveState {
  /** Null until the first answer. */
  sites: Site[] | null;
  people: PersonCheckinAnswer[];
  vehicles: VehicleCheckinAnswer[];
  alerts: AlertAnswer[];
  unacknowledged: number;
  /** What the hosts of the people on site were told, by check-in id (docs/notifications.md). */
  hostNotifications: Map<number, NotificationAnswer[]>;
  /** Why the last read failed, in plain words; null when it worked. */
  error: string | null;
}

/**
 * One event of the stream with when its connection was made, or `null` for a tick of the fallback poll
 * (read afresh): for a page that keeps what it shows outside the query cache (the form editor).
 */
export type LiveListener = (message: StreamMessage | null, connectedAt?: number) => void;

interface Live extends LiveState {
  /** Whether the stream is open: when it is not, a page re-reads after its own write instead of awaiting the echo. */
  streaming: boolean;
  /** The answer of the console's own write of a visit, put in place at once; its event is then skipped. */
  putVisit: (visit: PersonCheckinAnswer | VehicleCheckinAnswer) => void;
  /** The answer of the console's own acknowledgement; its event is then skipped. */
  putAlert: (alert: AlertAnswer) => void;
  /** Hears every event of the stream and every fallback tick until the returned function is called. */
  listen: (listener: LiveListener) => () => void;
}

const LiveContext = createContext<Live | null>(null);

export function useLive(): Live {
  const live = useContext(LiveContext);
  if (!live) throw new Error('useLive outside LiveProvider');
  return live;
}

/** Calls `listener` with each event of the stream and each fallback tick while the component is shown. */
export function useLiveEvents(listener: LiveListener): void {
  const { listen } = useLive();
  const current = useRef(listener);
  current.current = listener;
  useEffect(() => listen((message, connectedAt) => current.current(message, connectedAt)), [listen]);
}

/** While a host's notification is still being sent, asked again this often (sending publishes no event). */
const PENDING_NOTIFICATION_MS = 2_000;
const NO_VISITS: Visits = { people: [], vehicles: [], hostNotifications: new Map() };

/**
 * The live views (on site now, approvals, alerts and the navigation's count) as entries of the query cache:
 * read whole at start and on the stream's `reset`; then each event of `GET /v1/events` changes the one
 * visit it names (docs/event-stream-clients.md); while the stream is down, read whole every 30 s.
 */
export function LiveProvider({ children }: { children: ReactNode }) {
  const { can, signedOut } = useSession();
  const words = useWords();
  const queryClient = useQueryClient();
  // Read once the stream is asked for, so that its first `reset` finds the reading made after it.
  const [following, setFollowing] = useState(false);
  const sites = useQuery({ queryKey: liveKeys.sites, queryFn: readSites, enabled: following });
  const visits = useQuery({ queryKey: liveKeys.visits, queryFn: readVisits, enabled: following });
  const alerts = useQuery({ queryKey: liveKeys.alerts, queryFn: readAlerts, enabled: following && can.alerts });
  const [readError, setReadError] = useState<Failure | null>(null);
  const [streaming, setStreaming] = useState(false);
  const listeners = useRef(new Set<LiveListener>());
  const listen = useCallback((listener: LiveListener) => {
    listeners.current.add(listener);
    return () => void listeners.current.delete(listener);
  }, []);

  const failures = [sites.error, visits.error, alerts.error];
  const ended = failures.some((error) => error instanceof ReadFailure && error.signedOut);
  useEffect(() => {
    if (ended) signedOut();
  }, [ended, signedOut]);

  const changeVisits = useCallback(
    (change: (visits: Visits) => Visits) =>
      queryClient.setQueryData<Visits>(liveKeys.visits, (before) => change(before ?? NO_VISITS)),
    [queryClient],
  );

  const pendingTimer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const followNotifications = useCallback(
    (now: Visits) => {
      const pending = now.people.filter((checkin) =>
        (now.hostNotifications.get(checkin.checkinId) ?? []).some((item) => item.status === 'pending'),
      );
      clearTimeout(pendingTimer.current);
      if (pending.length === 0) return;
      pendingTimer.current = setTimeout(() => {
        void hostNotificationsOf(pending).then((read) => {
          // The changed copy comes back through the effect below, which asks again while any is pending.
          changeVisits((before) => ({
            ...before,
            hostNotifications: new Map([...before.hostNotifications, ...read]),
          }));
        });
      }, PENDING_NOTIFICATION_MS);
    },
    [changeVisits],
  );
  useEffect(() => {
    if (visits.data) followNotifications(visits.data);
  }, [visits.data, followNotifications]);
  useEffect(() => () => clearTimeout(pendingTimer.current), []);
  // What one user's writes expected is not the next one's.
  useEffect(() => () => forgetEchoes(), []);

  const removeVisit = useCallback(
    (kind: VisitKind, checkinId: number) =>
      changeVisits((before) =>
        kind === 'person'
          ? { ...before, people: before.people.filter((checkin) => checkin.checkinId !== checkinId) }
          : { ...before, vehicles: before.vehicles.filter((checkin) => checkin.checkinId !== checkinId) },
      ),
    [changeVisits],
  );

  /** A visit as it now reads, in (or out of) the live views, with what its host was told. */
  const placeVisit = useCallback(
    async (visit: PersonCheckinAnswer | VehicleCheckinAnswer) => {
      const kind: VisitKind = 'person' in visit ? 'person' : 'vehicle';
      const { checkinId } = visit;
      if (!isShown(kind, visit.status)) return void removeVisit(kind, checkinId);
      changeVisits((before) =>
        'person' in visit
          ? { ...before, people: [...before.people.filter((c) => c.checkinId !== checkinId), visit] }
          : { ...before, vehicles: [...before.vehicles.filter((c) => c.checkinId !== checkinId), visit] },
      );
      if (!('person' in visit) || visit.hostId === null) return;
      const told = await hostNotificationsOf([visit]);
      changeVisits((before) => ({ ...before, hostNotifications: new Map([...before.hostNotifications, ...told]) }));
    },
    [changeVisits, removeVisit],
  );

  // The newest read asked of each visit (or the console's own write of it): an older answer coming later is dropped.
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
      if (outcome.kind === 'refused' && outcome.status === 404) return void removeVisit(kind, checkinId);
      if (outcome.kind === 'refused' && outcome.status === 401) return signedOut();
      if (outcome.kind !== 'ok') {
        if (outcome.kind !== 'notModified') setReadError(outcome);
        return;
      }
      setReadError(null);
      await placeVisit(outcome.value);
    },
    [placeVisit, removeVisit, signedOut],
  );

  const putVisit = useCallback(
    (visit: PersonCheckinAnswer | VehicleCheckinAnswer) => {
      const key = `${'person' in visit ? 'person' : 'vehicle'}:${visit.checkinId}`;
      reads.current.set(key, (reads.current.get(key) ?? 0) + 1);
      void placeVisit(visit);
      // A reading of every visit under way may bring back the state before this write: read them again after it.
      if (queryClient.isFetching({ queryKey: liveKeys.visits }) > 0)
        void queryClient.invalidateQueries({ queryKey: liveKeys.visits });
    },
    [placeVisit, queryClient],
  );

  const putAlert = useCallback(
    (alert: AlertAnswer) =>
      queryClient.setQueryData<Alerts>(liveKeys.alerts, (before) => {
        if (!before) return before;
        const same = (item: AlertAnswer) => item.kind === alert.kind && item.checkinId === alert.checkinId;
        const was = before.data.find(same);
        const nowDone = was !== undefined && was.acknowledgedAt === null && alert.acknowledgedAt !== null;
        return {
          data: before.data.map((item) => (same(item) ? alert : item)),
          unacknowledged: Math.max(0, before.unacknowledged - (nowDone ? 1 : 0)),
        };
      }),
    [queryClient],
  );

  const readAll = useCallback(() => void queryClient.invalidateQueries({ queryKey: liveKeys.all }), [queryClient]);
  // A tick of the fallback poll: the live views, the open pages, and the form editor read afresh.
  const pollAll = useCallback(() => {
    readAll();
    readPagesAfresh(queryClient);
    for (const listener of listeners.current) listener(null);
  }, [queryClient, readAll]);
  useEffect(() => {
    const held = (kind: VisitKind, checkinId: number) => {
      const now = queryClient.getQueryData<Visits>(liveKeys.visits);
      return (kind === 'person' ? now?.people : now?.vehicles)?.find((checkin) => checkin.checkinId === checkinId)
        ?.status;
    };
    const acknowledged = (kind: string, checkinId: number) =>
      queryClient
        .getQueryData<Alerts>(liveKeys.alerts)
        ?.data.some((item) => item.kind === kind && item.checkinId === checkinId && item.acknowledgedAt !== null) ===
      true;
    const stream = followLive({
      readAll: pollAll,
      onSignedOut: signedOut,
      onStreaming: setStreaming,
      onEvent: (message, connectedAt) => {
        for (const listener of listeners.current) listener(message, connectedAt);
        if (message.event === 'reset') readPagesAfresh(queryClient, connectedAt);
        else followPageEvent(queryClient, message);
        const step = stepFor(message, held, acknowledged);
        if (step.do === 'nothing') return;
        // A reading made since this connection began is the reading afresh a `reset` asks for.
        if (step.do === 'readAll') {
          if (visitsRead.at < connectedAt) readAll();
          return;
        }
        // A reading of every visit under way may have missed this change: read them again when it ends.
        if (step.do !== 'readAlerts' && queryClient.isFetching({ queryKey: liveKeys.visits }) > 0) {
          void queryClient.invalidateQueries({ queryKey: liveKeys.visits });
          return;
        }
        if (step.do === 'readAlerts') {
          if (can.alerts) void queryClient.invalidateQueries({ queryKey: liveKeys.alerts });
        } else if (step.do === 'remove') removeVisit(step.kind, step.checkinId);
        else void readVisit(step.kind, step.siteId, step.checkinId);
      },
    });
    setFollowing(true);
    return () => stream.stop();
  }, [can.alerts, queryClient, pollAll, readAll, readVisit, removeVisit, signedOut]);

  const failure = failures.find((error) => error !== null);
  const now = visits.data ?? NO_VISITS;
  const live: Live = {
    sites: sites.data ?? null,
    people: now.people,
    vehicles: now.vehicles,
    alerts: alerts.data?.data ?? [],
    unacknowledged: alerts.data?.unacknowledged ?? 0,
    hostNotifications: now.hostNotifications,
    error: failure ? readFailureWords(words, failure) : readError && failureWords(words, readError),
    streaming,
    putVisit,
    putAlert,
    listen,
  };
  return <LiveContext.Provider value={live}>{children}</LiveContext.Provider>;
}
