import { useQuery, useQueryClient } from '@tanstack/react-query';
import { createContext, type ReactNode, useCallback, useContext, useEffect, useRef, useState } from 'react';
import type { PersonCheckinAnswer, VehicleCheckinAnswer } from '../../shared/src/client';
import type { NotificationAnswer } from '../../shared/src/client/hosts';
import type { AlertAnswer } from '../../shared/src/client/staff';
import type { Site } from '../../shared/src/schemas/sites';
import { api } from '../api';
import { useSession } from '../session/SessionContext';
import { useWords } from '../language/ConsoleLanguage';
import { type Failure, failureWords, readFailureWords } from '../words';
import { followLive } from './followLive';
import { hostNotificationsOf } from './hostNotifications';
import { ReadFailure, type Visits, liveKeys, readAlerts, readSites, readVisits, visitsRead } from './liveQueries';
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

  const removeVisit = useCallback(
    (kind: VisitKind, checkinId: number) =>
      changeVisits((before) =>
        kind === 'person'
          ? { ...before, people: before.people.filter((checkin) => checkin.checkinId !== checkinId) }
          : { ...before, vehicles: before.vehicles.filter((checkin) => checkin.checkinId !== checkinId) },
      ),
    [changeVisits],
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
      if (outcome.kind === 'refused' && outcome.status === 404) return void removeVisit(kind, checkinId);
      if (outcome.kind === 'refused' && outcome.status === 401) return signedOut();
      if (outcome.kind !== 'ok') {
        if (outcome.kind !== 'notModified') setReadError(outcome);
        return;
      }
      setReadError(null);
      const visit = outcome.value;
      if (!isShown(kind, visit.status)) return void removeVisit(kind, checkinId);
      const told = 'person' in visit && visit.hostId !== null ? await hostNotificationsOf([visit]) : undefined;
      changeVisits((before) => {
        if (!('person' in visit))
          return { ...before, vehicles: [...before.vehicles.filter((c) => c.checkinId !== checkinId), visit] };
        return {
          ...before,
          people: [...before.people.filter((checkin) => checkin.checkinId !== checkinId), visit],
          hostNotifications: told ? new Map([...before.hostNotifications, ...told]) : before.hostNotifications,
        };
      });
    },
    [changeVisits, removeVisit, signedOut],
  );

  const readAll = useCallback(() => void queryClient.invalidateQueries({ queryKey: liveKeys.all }), [queryClient]);
  useEffect(() => {
    const held = (kind: VisitKind, checkinId: number) => {
      const now = queryClient.getQueryData<Visits>(liveKeys.visits);
      return (kind === 'person' ? now?.people : now?.vehicles)?.find((checkin) => checkin.checkinId === checkinId)
        ?.status;
    };
    const stream = followLive({
      readAll,
      onSignedOut: signedOut,
      onEvent: (message, connectedAt) => {
        const step = stepFor(message, held);
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
  }, [can.alerts, queryClient, readAll, readVisit, removeVisit, signedOut]);

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
    refresh: readAll,
  };
  return <LiveContext.Provider value={live}>{children}</LiveContext.Provider>;
}
