import type { DexieOptions } from 'dexie';
import { version as packageVersion } from '../../package.json';
import { createApiClient } from '../../shared/src/client';
import { createKioskLinkClient } from '../../shared/src/client/administration';
import { fetchBadgePdf } from '../../shared/src/client/badge';
import { type BadgePrinter, badgePrinting } from './badges/badgePrinting';
import { checkOutByBadge } from './data/badgeCheckout';
import { attentionItems, discardAction, retryAction } from './data/attention';
import { type CommandContext, type CommandResult, refused } from './data/command';
import { KioskDatabase } from './data/database';
import { observeQuery } from './data/observe';
import { checkScannedPass } from './data/passes';
import { type CheckinInput, checkIn, checkOut, endBreak, startBreak } from './data/personCommands';
import {
  findPeople,
  outboxCounts,
  peopleWhoMayLeave,
  rollCallView,
  siteVehicleVisits,
  vehiclesOnSite,
} from './data/queries';
import { schedulePruning } from './data/retention';
import { readSiteLanguage, readSiteName, recordSiteName } from './data/siteName';
import { type PlateLookup, vehicleDecide, vehicleEntry } from './data/vehicleCommands';
import { findKnownVehicle, knownVehiclesOf } from './data/vehicleDirectory';
import type { Platform } from './platform/platform';
import { type SyncEngineOptions, createSyncEngine } from './sync/engine';
import { exitByPlate } from './sync/gateExit';
import { type HeartbeatAnswer, type HeartbeatReport, scheduleHeartbeat } from './sync/heartbeat';
import { followSiteEvents } from './sync/liveEvents';
import { plateHistory } from './sync/plateHistory';
import { createRevocation } from './sync/revocation';
import { serverClock } from './sync/serverClock';
import { CONFIG_MAX_AGE_MS, siteConfigSource } from './sync/siteConfig';
import { siteHostsSource } from './sync/siteHosts';

export interface KioskOptions {
  platform: Platform;
  /** IndexedDB database name: one per paired kiosk. */
  databaseName: string;
  /** `indexedDB` and `IDBKeyRange` where there is no global IndexedDB. */
  databaseOptions?: DexieOptions;
  serverUrl: string;
  token: string;
  siteId: number;
  mode: 'visitor' | 'gate';
  requestTimeoutMs?: number;
  sync?: Pick<SyncEngineOptions, 'concurrency' | 'retryPolicy' | 'pullIntervalMs' | 'onError'>;
  /**
   * Stamp actions with the device clock corrected by the server's when it is a minute or more off (the
   * app does; tests that let time pass by moving the device clock leave it off).
   */
  correctClock?: boolean;
  /**
   * Report to the server (`POST /v1/kiosk/heartbeat`): every minute while no event stream is open, else when
   * the report changes or every 15 minutes (sync/heartbeat.ts). The app does; tests whose stub servers count
   * every request leave it off. `intervalMs` and `quietMs` shorten the minute and the 15 minutes for tests.
   */
  heartbeat?: boolean | { intervalMs: number; quietMs?: number };
  /**
   * Follow the server's event stream (`GET /v1/events`) and pull at once when the site changes: the app
   * does; tests whose stub servers count every request leave it off. `silenceMs` shortens the watchdog.
   */
  events?: boolean | { silenceMs: number };
  /** The version the heartbeat reports (the app's package version unless told). */
  appVersion?: string;
  /** A visitor kiosk prints the badge of each check-in the server admits (docs/running-a-site.md, Badges). */
  badgePrinter?: BadgePrinter;
}

/**
 * Everything a kiosk screen needs, bound to one database, server and site: local commands that answer
 * at once, live views, Needs attention, and the sync engine behind them. Independent of React and
 * Electron: the UI subscribes to the observables and calls the commands.
 */
export function openKiosk(options: KioskOptions) {
  const { platform, siteId } = options;
  const db = new KioskDatabase(options.databaseName, options.databaseOptions);
  // Actions are stamped with the device clock corrected by the server's (when it is a minute or more off);
  // the sync engine's timers keep to the device clock.
  const clock = serverClock(db, platform.clock, { enabled: options.correctClock ?? false });
  const now = clock.now;
  /**
   * A command, once the clock correction kept from before is in use (one database read, at open). A command
   * whose write the device's storage refused (full, or the database closed under it) saved nothing: it is
   * refused in words, so the screen says so and takes the next action, instead of waiting for good.
   */
  const stamped = <T>(command: () => Promise<CommandResult<T>>): Promise<CommandResult<T>> =>
    clock.ready.then(command).catch((error: unknown) => {
      console.error('kiosk command not saved', error);
      return refused('NOT_SAVED', 'This device could not save it; nothing was recorded. Please try again.');
    });
  // Any 401 of the API, whoever asked, means this token is revoked: the sync and the heartbeat stop.
  const revocation = createRevocation();
  const fetch = revocation.watch(platform.fetch);
  const api = createApiClient({
    baseUrl: options.serverUrl,
    token: options.token,
    fetch,
    now,
    timeoutMs: options.requestTimeoutMs,
    onServerTime: clock.observe,
  });
  const link = createKioskLinkClient({
    baseUrl: options.serverUrl,
    token: options.token,
    fetch,
    now,
    timeoutMs: options.requestTimeoutMs,
  });
  const pairing = { serverUrl: options.serverUrl, siteId };
  const engine = createSyncEngine({
    db,
    api,
    platform,
    siteId,
    mode: options.mode,
    pairing,
    stampClock: clock,
    revocation,
    ...options.sync,
  });
  const heartbeatReport = async (): Promise<HeartbeatReport> => {
    const { pending, attention } = await outboxCounts(db);
    return { pending, attention, appVersion: options.appVersion ?? packageVersion };
  };
  const sendReport = async (body: HeartbeatReport): Promise<HeartbeatAnswer> => {
    const outcome = await link.heartbeat(body);
    if (outcome.kind === 'ok') return 'sent';
    return outcome.kind === 'refused' && outcome.status === 404 ? 'notAKiosk' : 'failed';
  };
  // An open event stream marks the kiosk seen on the server: heartbeats then go only when what they say changes.
  let streamOpen = false;
  let stopBackground: Array<() => void> = [];
  const ctx: CommandContext = {
    db,
    now,
    stamp: clock.stamp,
    randomUUID: () => platform.randomUUID(),
    onEnqueued: engine.kick,
  };
  // An Entry's prediction comes from the kiosk's copy of the account's vehicles (works offline).
  const lookup: PlateLookup = async (plateKey) => {
    const known = await findKnownVehicle(db, plateKey);
    return { registered: known !== undefined, blockingLabelNames: known?.blockingLabelNames ?? [] };
  };
  const badges =
    options.badgePrinter && options.mode === 'visitor'
      ? badgePrinting({
          db,
          printer: options.badgePrinter,
          fetchBadge: (visit) => fetchBadgePdf({ baseUrl: options.serverUrl, token: options.token, fetch }, visit),
          clock: platform.clock,
        })
      : undefined;
  const config = siteConfigSource({
    db,
    api,
    now,
    hasLink: engine.hasLink,
    isOnline: engine.isOnline,
    pairing,
  });
  const hosts = siteHostsSource({ db, api, now, hasLink: engine.hasLink, isOnline: engine.isOnline, pairing });
  // When the site was last asked for: a visitor kiosk asks again after a visit, at most every 5 minutes.
  let siteAskedAt: number | undefined;
  return {
    db,
    api,
    engine,
    siteId,
    async checkIn(input: CheckinInput) {
      const result = await stamped(() => checkIn(ctx, siteId, input));
      if (result.ok) badges?.afterCheckin(result.value);
      return result;
    },
    startBreak: (visitId: string) => stamped(() => startBreak(ctx, visitId)),
    endBreak: (visitId: string) => stamped(() => endBreak(ctx, visitId)),
    checkOut: (visitId: string) => stamped(() => checkOut(ctx, visitId)),
    /** Checks out the visit whose badge QR code was scanned (or typed by a keyboard-wedge scanner). */
    checkOutByBadge: (scanned: string) => stamped(() => checkOutByBadge(ctx, siteId, scanned)),
    vehicleEntry: (licensePlate: string, details: { driverName?: string } = {}) =>
      stamped(() => vehicleEntry(ctx, siteId, licensePlate, { ...details, lookup })),
    /** A guard admits a PENDING vehicle. */
    vehicleAdmit: (visitId: string) => stamped(() => vehicleDecide(ctx, visitId, { type: 'APPROVE' })),
    /** A guard refuses a PENDING vehicle, saying why if he wants to. */
    vehicleRefuse: (visitId: string, reason?: string) =>
      stamped(() => vehicleDecide(ctx, visitId, { type: 'DENY', reason })),
    vehicleExit: (licensePlate: string) =>
      stamped(() =>
        exitByPlate(ctx, { api, hasLink: engine.hasLink, siteId, deviceNow: () => platform.clock.now() }, licensePlate),
      ),
    /** The check-in form's fields (cached 5 minutes; the cached copy however old while offline, or after a 1 s wait). */
    siteConfig: () => config.get(siteId),
    /** The site's hosts by name, for a form's host field (kept like the configuration, for offline). */
    siteHosts: () => hosts.get(siteId),
    /** A scanned or typed pass, checked offline with this kiosk's copy of the keys (docs/invitations.md). */
    checkPass: (text: string) => checkScannedPass(db, siteId, text, now()),
    /** Those who may check out or take a break (IN, ON_BREAK) whose name starts with what was typed. */
    findPeople: (typed: string) => findPeople(db, siteId, typed),
    /** Everyone "Find your name" may list, as it changes. */
    peopleWhoMayLeave: observeQuery(() => peopleWhoMayLeave(db, siteId)),
    /** The Roll call: the people on site it counts, and the refused check-ins it lists apart. */
    rollCall: observeQuery(() => rollCallView(db, siteId)),
    /** One visit as it changes (its status once the server has answered). */
    watchVisit: (visitId: string) => observeQuery(() => db.people.get(visitId)),
    vehiclesOnSite: observeQuery(() => vehiclesOnSite(db, siteId)),
    /** Every vehicle visit held for the site, STOP and OUT too (the gate's result cards follow them). */
    siteVehicles: observeQuery(() => siteVehicleVisits(db, siteId)),
    /** The registered vehicles of these normalized plates in the gate's copy (make, model, colour), as it changes. */
    knownVehicles: (plateKeys: readonly string[]) => observeQuery(() => knownVehiclesOf(db, plateKeys)),
    /** A plate's last visits at this site: this kiosk's, and the server's when it can be asked. */
    plateHistory: (licensePlate: string) => plateHistory({ db, api, siteId, hasLink: engine.hasLink }, licensePlate),
    /** The site's name as last heard from the server (kept for offline). */
    siteName: observeQuery(() => readSiteName(db, siteId)),
    /** The site's default language as last heard from the server (kept for offline). */
    siteLanguage: observeQuery(() => readSiteLanguage(db, siteId)),
    /**
     * Asks the server for the site's name and default language (nothing happens offline, or when it does not
     * answer); `unlessAskedWithin` skips it when the site was asked that recently.
     */
    async refreshSite(unlessAskedWithin = 0): Promise<void> {
      const now = platform.clock.now();
      if (!engine.hasLink()) return;
      if (siteAskedAt !== undefined && Math.abs(now - siteAskedAt) < unlessAskedWithin) return;
      const site = await api.getSite(siteId);
      if (site.kind !== 'ok') return;
      siteAskedAt = now;
      await recordSiteName(db, pairing, site.value);
    },
    /** How often a visitor kiosk asks for its site again (as often as for its form). */
    siteMaxAgeMs: CONFIG_MAX_AGE_MS,
    needsAttention: observeQuery(() => attentionItems(db)),
    status: engine.status,
    /** True once the server refused this kiosk's token (401): nothing syncs until it is paired again. */
    revoked: revocation.revoked,
    async retry(seq: number): Promise<boolean> {
      const retried = await retryAction(db, seq, () => platform.randomUUID());
      if (retried) engine.kick();
      return retried;
    },
    async discard(seq: number) {
      const report = await discardAction(db, seq);
      // What waited behind the discarded action (later actions of its plate) may go now, not at the next timer.
      if (report) engine.kick();
      return report;
    },
    start() {
      engine.start();
      if (stopBackground.length > 0) return;
      const onError = options.sync?.onError;
      // Visits that left a day ago are dropped from the device, offline too (docs/kiosk-sync.md, What the kiosk keeps).
      stopBackground = [schedulePruning(db, platform.clock, now, { onError })];
      const { heartbeat, events } = options;
      if (events) {
        const follower = followSiteEvents({
          serverUrl: options.serverUrl,
          token: options.token,
          fetch,
          db,
          api,
          siteId,
          mode: options.mode,
          pairing,
          now: () => platform.clock.now(),
          clock: platform.clock,
          pullSoon: engine.pullSoon,
          onState: (state) => {
            streamOpen = state === 'open';
          },
          silenceMs: events === true ? undefined : events.silenceMs,
        });
        stopBackground.push(follower.stop);
      }
      if (heartbeat) {
        const timing: { intervalMs?: number; quietMs?: number } = heartbeat === true ? {} : heartbeat;
        stopBackground.push(
          scheduleHeartbeat({
            clock: platform.clock,
            report: heartbeatReport,
            send: sendReport,
            hasLink: engine.hasLink,
            isRevoked: revocation.isRevoked,
            streamOpen: () => streamOpen,
            intervalMs: timing.intervalMs,
            quietMs: timing.quietMs,
            onError,
          }).stop,
        );
      }
    },
    async close(): Promise<void> {
      for (const stop of stopBackground) stop();
      badges?.stop();
      await engine.stop();
      db.close();
    },
  };
}

export type Kiosk = ReturnType<typeof openKiosk>;
