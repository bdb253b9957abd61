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
import { pullVehicles } from './pull';
import { pushOutbox } from './push';
import { pullVehicleDirectory } from './vehicleDirectoryPull';
import { nextRetryAt, resetNetworkBackoff } from './schedule';
import type { Revocation } from './revocation';
import type { ServerClock } from './serverClock';
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
  let stopped = true;
  let started = false;
  let pullWanted = true;
  let backoffReset = false;
  // While the server does not answer at all, or its answers cannot be written down (the device's storage
  // is full), or a pass fails outright, the whole queue waits (not just the visits that were tried): a
  // backoff for the pass itself, so a long queue does not hammer the server one visit at a time, nor resend
  // what it cannot record in a loop.
  let failedPasses = 0;
  let pausedUntil = 0;
  // A pass counts once however it failed (its push failed, then its schedule threw): one step of backoff.
  let pausedThisPass = false;
  let unsubscribeLink: (() => void) | undefined;
  let unsubscribeRevoked: (() => void) | undefined;
  const revoked = () => options.revocation?.isRevoked() ?? false;
  // Revoked, the engine stops for good (no pass, no timer, no retry loop): the outbox is kept as it is, and
  // the kiosk opened for the new pairing sends it.
  const halted = () => stopped || revoked();

  /** One more failed pass in a row: the whole queue waits a longer backoff. */
  const pauseQueue = () => {
    if (pausedThisPass) return;
    pausedThisPass = true;
    failedPasses += 1;
    const until = now() + policy.delayMs(failedPasses, undefined);
    // A pass that fails during a pause (a kick) does not shorten it, as the jitter could; a pause beyond the
    // cap is over (the device clock was set back).
    pausedUntil = pausedUntil - now() > policy.capMs ? until : Math.max(pausedUntil, until);
  };

  const syncOnce = async () => {
    // Without a link every request fails at once; waiting costs nothing and keeps the backoff short.
    if (halted() || !connectivity.hasLink()) return;
    if (backoffReset) {
      backoffReset = false;
      failedPasses = 0;
      pausedUntil = 0;
      await resetNetworkBackoff(db);
    }
    // A pause further away than the longest backoff means the device clock was set back: it is over.
    if (pausedUntil - now() > policy.capMs) pausedUntil = 0;
    if (now() >= pausedUntil) {
      const reach = { now, onReachability: connectivity.report, pairing: options.pairing };
      const pushed = await pushOutbox({
        db,
        api,
        policy,
        concurrency: options.concurrency ?? 6,
        isStopped: halted,
        acks,
        restamping,
        ...reach,
      });
      if (revoked()) return;
      if (pushed !== 'done') pauseQueue();
      else {
        failedPasses = 0;
        pausedUntil = 0;
      }
      // Not gated on the last answer: with nothing queued, a pull is what finds the server back. (Not after a
      // failed pass: the server is away, or the storage the pull writes to is failing.)
      if (pullWanted && !halted() && pushed === 'done') {
        // Cleared before, so a pull asked for while this one runs is not lost; set again unless it completed,
        // so a pull that failed or threw (storage failing under it) goes with the next pass, not the timer's.
        pullWanted = false;
        let pulled = false;
        try {
          // The visitor kiosk keeps its people by the site's change feed; a gate shows no people (and its
          // token may not read them, §27).
          const people = options.mode === 'gate' ? 'pulled' : await pullPeopleFeed({ db, api, ...reach }, siteId);
          const vehicles = options.mode === 'gate' ? await pullVehicles({ db, api, ...reach }, siteId) : 'pulled';
          // The lobby tells a watchlisted visitor to see reception, offline too: from this copy. The gate decides
          // offline by its copy of the registered vehicles: only the changes come.
          const digest =
            options.mode === 'gate' ? 'pulled' : await refreshWatchlistDigest({ db, api, ...reach }, siteId);
          const directory = options.mode === 'gate' ? await pullVehicleDirectory({ db, api, ...reach }) : 'pulled';
          // The lobby checks visitors' passes offline too: with the keys and revoked passes last pulled.
          const passes = options.mode === 'gate' ? 'pulled' : await refreshSitePasses({ db, api, ...reach }, siteId);
          pulled = [people, vehicles, digest, directory, passes].every((result) => result === 'pulled');
        } finally {
          if (!pulled) pullWanted = true;
        }
      }
    }
    if (!halted()) {
      // A pull still wanted waits for the pause as the queue does (a pause is only ever set, and kept, by a
      // failed pass): the timer may have woken this pass a moment before the pause ended, as timers can fire
      // a millisecond early by the wall clock, and then this is what brings the pull.
      const retryAt =
        (await nextRetryAt(db, now(), policy)) ?? (pullWanted && pausedUntil > 0 ? pausedUntil : undefined);
      if (retryAt === undefined) retryTimer.cancel();
      else retryTimer.wakeAt(Math.max(retryAt, pausedUntil));
    }
  };

  const pass = async () => {
    pausedThisPass = false;
    try {
      await syncOnce();
    } catch (error) {
      // A pass that threw (the device's storage failing under the push, the pull or the schedule) is a failed
      // pass: otherwise nothing would bring the queue back but an unrelated trigger, and every kick would try
      // again at once. The timer brings the next pass when the pause ends; the loop reports the error.
      pauseQueue();
      if (!halted()) retryTimer.wakeAt(pausedUntil);
      throw error;
    }
  };

  const loop = guardedLoop({
    locks: platform.locks,
    lockName: options.lockName ?? `gatehouse-sync:${db.name}`,
    pass,
    onError,
  });
  const retryTimer = wakeTimer(clock, () => loop.request());
  const pullTimer = wakeTimer(clock, () => {
    if (revoked()) return;
    pullWanted = true;
    loop.request();
    pullTimer.wakeAt(now() + jittered(pullIntervalMs));
  });

  return {
    start() {
      // An engine runs once: after stop() its subscriptions are gone; make a new one to sync again.
      if (started) return;
      started = true;
      stopped = false;
      pullWanted = true;
      unsubscribeLink = platform.online.subscribe((online) => {
        if (!online) return;
        // Back online: what failed for want of a network goes now, not after its backoff.
        backoffReset = true;
        pullWanted = true;
        loop.request();
      });
      unsubscribeRevoked = options.revocation?.revoked.subscribe((isRevoked) => {
        if (!isRevoked) return;
        retryTimer.cancel();
        pullTimer.cancel();
      });
      // The first timed pull at a random point of the period (a pull runs at start anyway).
      pullTimer.wakeAt(now() + Math.random() * pullIntervalMs);
      loop.request();
    },
    async stop() {
      stopped = true;
      unsubscribeLink?.();
      unsubscribeRevoked?.();
      connectivity.dispose();
      retryTimer.cancel();
      pullTimer.cancel();
      await loop.idle();
    },
    kick: () => loop.request(),
    pullSoon() {
      if (halted()) return;
      pullWanted = true;
      loop.request();
    },
    async syncNow() {
      pullWanted = true;
      loop.request();
      await loop.idle();
    },
    idle: () => loop.idle(),
    status: syncStatus(db, connectivity),
    isOnline: connectivity.isOnline,
    hasLink: connectivity.hasLink,
  };
}
