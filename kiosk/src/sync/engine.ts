import type { ApiClient } from '../../../shared/src/client';
import type { KioskDatabase } from '../data/database';
import type { Observable } from '../data/observe';
import type { Pairing } from '../data/settings';
import type { Platform } from '../platform/platform';
import { ackWriter } from './ackWriter';
import { type RetryPolicy, fullJitterBackoff } from './backoff';
import { createConnectivity } from './connectivity';
import { guardedLoop } from './guardedLoop';
import { pullPeopleFeed } from './peopleFeedPull';
import { type PullResult, pullVehicles } from './pull';
import { pushOutbox } from './push';
import { pullVehicleDirectory } from './vehicleDirectoryPull';
import { nextRetryAt, resetNetworkBackoff } from './schedule';
import type { Revocation } from './revocation';
import type { ServerClock } from './serverClock';
import {
  type PullPart,
  type SyncEffect,
  type SyncEvent,
  type SyncSettings,
  initialSyncState,
  isHalted,
  nextSync,
} from './syncMachine';
import { type SyncStatus, syncStatus } from './status';
import { wakeTimer } from './wakeTimer';
import { refreshSitePasses } from './sitePasses';
import { refreshWatchlistDigest } from './watchlistDigest';

/** The timed pull's period: the event stream brings a site's changes at once, this is the safety net. */
export const PULL_INTERVAL_MS = 5 * 60_000;

export interface SyncEngineOptions {
  db: KioskDatabase;
  api: ApiClient;
  platform: Platform;
  siteId: number;
  /** Gate kiosks also keep the vehicles on site in step. */
  mode?: 'visitor' | 'gate';
  concurrency?: number;
  retryPolicy?: RetryPolicy;
  /**
   * How often the site's state is pulled while nothing else happens (jittered ±10 %): the event stream asks
   * for a pull at once when the site changes, so this is only the safety net.
   */
  pullIntervalMs?: number;
  /** The server and site the kiosk was opened for: a pull that ends after a move to another writes nothing. */
  pairing?: Pairing;
  /** Web Lock name: one sync loop per database across every window. */
  lockName?: string;
  /** The clock actions are stamped by: with it, an action refused as stamped in the future is restamped. */
  stampClock?: Pick<ServerClock, 'serverNow' | 'correctionMs'>;
  onError?: (error: unknown) => void;
  /** Told of the API's 401s (the kiosk's fetch watches for them): once revoked, the engine sends nothing more. */
  revocation?: Revocation;
}

export interface SyncEngine {
  start: () => void;
  /** Stops triggering passes and waits for the running one (its in-flight answers are still written down). */
  stop: () => Promise<void>;
  /** Asks for a push soon (after a local command queued something). */
  kick: () => void;
  /** Asks for a pass with a pull soon (the site changed on the server); returns at once. */
  pullSoon: () => void;
  /** A pass with a pull, resolved when the loop is idle again. */
  syncNow: () => Promise<void>;
  /** Resolves when no pass is running or asked for. */
  idle: () => Promise<void>;
  status: Observable<SyncStatus>;
  isOnline: () => boolean;
  /** The device link alone (for lookups that need the server, like exit by plate). */
  hasLink: () => boolean;
}

/**
 * The sync engine's driver: it turns what happens (start, stop, a kick, the link coming back, a revocation, a
 * timer, a push or pull that ended) into events for the machine (syncMachine.ts), which alone decides, and
 * carries out the effects the machine asks for. Every I/O step of a pass reports back as an event.
 */
export function createSyncEngine(options: SyncEngineOptions): SyncEngine {
  const { db, api, platform, siteId } = options;
  const { clock } = platform;
  const policy = options.retryPolicy ?? fullJitterBackoff();
  const pullIntervalMs = options.pullIntervalMs ?? PULL_INTERVAL_MS;
  // A thousand kiosks that come back together must not ask together (docs/event-stream-clients.md).
  const jittered = (ms: number) => ms * (0.9 + 0.2 * Math.random());
  const onError = options.onError ?? (() => {});
  const connectivity = createConnectivity(platform.online);
  const now = () => clock.now();
  const acks = ackWriter(db, now, onError);
  const restamping = options.stampClock && { clock: options.stampClock, newKey: () => platform.randomUUID() };
  const settings: SyncSettings = { mode: options.mode ?? 'visitor', capMs: policy.capMs };
  const reach = { db, api, now, onReachability: connectivity.report, pairing: options.pairing };
  const pulls: Record<PullPart, () => Promise<PullResult>> = {
    people: () => pullPeopleFeed(reach, siteId),
    vehicles: () => pullVehicles(reach, siteId),
    watchlistDigest: () => refreshWatchlistDigest(reach, siteId),
    vehicleDirectory: () => pullVehicleDirectory(reach),
    sitePasses: () => refreshSitePasses(reach, siteId),
  };
  let state = initialSyncState();
  const halted = () => isHalted(state);
  let unsubscribeLink: (() => void) | undefined;
  let unsubscribeRevoked: (() => void) | undefined;
  /** The pass the guarded loop is waiting for, and what it threw. */
  let passEnd: { resolve: () => void; reject: (error: unknown) => void } | undefined;
  let thrown: unknown;

  // Events raised while effects are carried out (a subscription answering at once) wait their turn, so the
  // machine sees one event at a time, in order.
  const queue: SyncEvent[] = [];
  let dispatching = false;
  const dispatch = (event: SyncEvent): void => {
    queue.push(event);
    if (dispatching) return;
    dispatching = true;
    try {
      for (let next = queue.shift(); next !== undefined; next = queue.shift()) {
        const step = nextSync(state, next, settings);
        state = step.state;
        step.effects.forEach(perform);
      }
    } finally {
      dispatching = false;
    }
  };

  /** Runs a pass's I/O step and reports its result, or that it threw, as the next event. */
  const report = <T>(work: () => Promise<T>, toEvent: (value: T) => SyncEvent): void => {
    new Promise<T>((resolve) => resolve(work())).then(
      (value) => dispatch(toEvent(value)),
      (error: unknown) => {
        thrown = error;
        dispatch({ type: 'PASS_THREW' });
      },
    );
  };

  const endPass = (outcome: 'ended' | 'failed') => {
    const ending = passEnd;
    const error = thrown;
    passEnd = undefined;
    thrown = undefined;
    if (outcome === 'ended') ending?.resolve();
    else ending?.reject(error);
  };

  function perform(effect: SyncEffect): void {
    switch (effect.type) {
      case 'LISTEN':
        unsubscribeLink = platform.online.subscribe((online) => {
          if (online) dispatch({ type: 'LINK_UP' });
        });
        unsubscribeRevoked = options.revocation?.revoked.subscribe((isRevoked) => {
          if (isRevoked) dispatch({ type: 'REVOKED' });
        });
        return;
      case 'UNLISTEN':
        unsubscribeLink?.();
        unsubscribeRevoked?.();
        connectivity.dispose();
        return;
      case 'REQUEST_PASS':
        loop.request();
        return;
      case 'RESET_NETWORK_BACKOFF':
        report(
          () => resetNetworkBackoff(db),
          () => ({ type: 'BACKOFF_RESET', at: now() }),
        );
        return;
      case 'PUSH':
        report(
          () =>
            pushOutbox({
              ...reach,
              policy,
              concurrency: options.concurrency ?? 6,
              isStopped: halted,
              acks,
              restamping,
            }),
          (result) => ({ type: 'PUSHED', result }),
        );
        return;
      case 'DRAW_PAUSE':
        dispatch({ type: 'PAUSE_DRAWN', at: now(), delayMs: policy.delayMs(effect.failures, undefined) });
        return;
      case 'PULL':
        report(pulls[effect.part], (result) => ({ type: 'PULLED', result }));
        return;
      case 'SCHEDULE':
        report(
          () => nextRetryAt(db, now(), policy),
          (retryAt) => ({ type: 'SCHEDULED', retryAt }),
        );
        return;
      case 'SET_RETRY_TIMER':
        retryTimer.wakeAt(effect.at);
        return;
      case 'CANCEL_RETRY_TIMER':
        retryTimer.cancel();
        return;
      case 'SET_PULL_TIMER':
        pullTimer.wakeAt(effect.at);
        return;
      case 'CANCEL_PULL_TIMER':
        pullTimer.cancel();
        return;
      case 'END_PASS':
        endPass('ended');
        return;
      case 'FAIL_PASS':
        endPass('failed');
        return;
    }
  }

  const loop = guardedLoop({
    locks: platform.locks,
    lockName: options.lockName ?? `gatehouse-sync:${db.name}`,
    pass: () =>
      new Promise<void>((resolve, reject) => {
        passEnd = { resolve, reject };
        dispatch({ type: 'PASS_BEGAN', at: now(), hasLink: connectivity.hasLink() });
      }),
    onError,
  });
  const retryTimer = wakeTimer(clock, () => dispatch({ type: 'RETRY_TIMER_FIRED' }));
  const pullTimer = wakeTimer(clock, () =>
    dispatch({ type: 'PULL_TIMER_FIRED', nextPullAt: now() + jittered(pullIntervalMs) }),
  );

  return {
    // An engine runs once: after stop() its subscriptions are gone; make a new one to sync again.
    start: () => dispatch({ type: 'START', firstPullAt: now() + Math.random() * pullIntervalMs }),
    async stop() {
      dispatch({ type: 'STOP' });
      await loop.idle();
    },
    kick: () => dispatch({ type: 'KICK' }),
    pullSoon: () => dispatch({ type: 'PULL_SOON' }),
    async syncNow() {
      dispatch({ type: 'SYNC_NOW' });
      await loop.idle();
    },
    idle: () => loop.idle(),
    status: syncStatus(db, connectivity),
    isOnline: connectivity.isOnline,
    hasLink: connectivity.hasLink,
  };
}
