import type { KioskMode } from '../../shared/src/schemas/kiosks';
import 'fake-indexeddb/auto';
import { IDBKeyRange, indexedDB } from 'fake-indexeddb';
import { randomUUID } from 'node:crypto';
import type { PersonCheckin } from '../../shared/src/schemas/personCheckins';
import type { FetchLike } from '../../shared/src/client/http';
import type { VehicleCheckin } from '../../shared/src/schemas/vehicles';
import type { AttentionItem } from '../../kiosk/src/data/attention';
import { type Kiosk, openKiosk } from '../../kiosk/src/kiosk';
import { type TestNetwork, type TestPlatform, testNetwork, testPlatform } from '../../kiosk/src/platform/testPlatform';
import { visitHeads } from '../../kiosk/src/data/visits';
import { type RetryPolicy, fullJitterBackoff } from '../../kiosk/src/sync/backoff';
import { kioskSite } from '../support/factories';
import type { ApiClient } from '../support/http';
import { serverForFile } from '../support/serverAndWorld';
import type { TestServer } from '../support/testServer';

/** The file's real server, with a rate limit no kiosk test reaches (retrying 429s is tested on its own). */
export const kioskServerForFile = () => serverForFile({ RATE_LIMIT_PER_MINUTE: '1000000' });

export interface KioskSite {
  siteId: number;
  /** A kiosk-channel token for this site only, as a paired kiosk holds. */
  kioskToken: string;
  /** An integrator client with every scope, to look at (and change) the server directly. */
  api: ApiClient;
}

/** A fresh site of its own (so tests and property runs never see each other's visits). */
export const buildKioskSite = (server: TestServer, mode: KioskMode = 'visitor'): Promise<KioskSite> =>
  kioskSite(server, undefined, mode);

/** Backoff in milliseconds, so faults cost tests nothing; the shape (full jitter, cap) is the real one. */
export const testRetryPolicy = () => fullJitterBackoff({ baseMs: 2, capMs: 25 });

export interface TestKiosk {
  kiosk: Kiosk;
  platform: TestPlatform;
  network: TestNetwork;
  databaseName: string;
}

/** A kiosk on fake-indexeddb talking to the real server through a network the test controls. */
export function openTestKiosk(
  server: TestServer,
  site: KioskSite,
  options: {
    databaseName?: string;
    online?: boolean;
    clockOffsetMs?: number;
    random?: () => number;
    mode?: 'visitor' | 'gate';
    concurrency?: number;
    retryPolicy?: RetryPolicy;
    /** The fetch under the test network (to watch what the kiosk sends and receives). */
    fetch?: FetchLike;
    /** Follow the event stream (off by default: most tests drive every pull themselves). */
    events?: boolean;
  } = {},
): TestKiosk {
  const network = testNetwork({ online: options.online ?? true, random: options.random, fetch: options.fetch });
  const platform = testPlatform({ network, clockOffsetMs: options.clockOffsetMs });
  const databaseName = options.databaseName ?? `kiosk-${randomUUID()}`;
  const kiosk = openKiosk({
    platform,
    databaseName,
    // Given explicitly rather than as globals: Dexie reads globals when it is first imported.
    databaseOptions: { indexedDB, IDBKeyRange },
    serverUrl: server.baseUrl,
    token: site.kioskToken,
    siteId: site.siteId,
    mode: options.mode ?? 'visitor',
    requestTimeoutMs: 10_000,
    events: options.events,
    sync: {
      retryPolicy: options.retryPolicy ?? testRetryPolicy(),
      concurrency: options.concurrency ?? 4,
      pullIntervalMs: 60_000,
    },
  });
  return { kiosk, platform, network, databaseName };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** True while some visit's next action can be sent (not refused, nor waiting behind a refused one). */
export const hasSendable = async (kiosk: Kiosk) => (await visitHeads(kiosk.db)).some((head) => head.state === 'QUEUED');

/** Syncs until nothing is left to send (refused actions stay, in Needs attention, with those behind them). */
export async function drain(kiosk: Kiosk, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    await kiosk.engine.syncNow();
    if (!(await hasSendable(kiosk))) return;
    if (Date.now() > deadline) throw new Error('the outbox did not drain in time');
    await sleep(5);
  }
}

/**
 * Calls `onChange` in the very tick `network.stats` counts a request sent or an answer delivered. A test that
 * polls the counts may look hundreds of ms late on a loaded machine: past a moment it wanted to catch (some
 * requests in flight), or past the next request after a pause it wanted to measure.
 */
export function onNetworkStats(
  network: Pick<TestNetwork, 'stats'>,
  onChange: (stats: { sent: number; delivered: number }, counted: 'sent' | 'delivered') => void,
): void {
  const counts = { sent: network.stats.sent, delivered: network.stats.delivered };
  for (const key of ['sent', 'delivered'] as const)
    Object.defineProperty(network.stats, key, {
      configurable: true,
      enumerable: true,
      get: () => counts[key],
      set: (value: number) => {
        counts[key] = value;
        onChange({ ...counts }, key);
      },
    });
}

/** When each request went out (`network.stats.sent` counted up), taken as it goes. */
export function sendTimes(network: Pick<TestNetwork, 'stats'>): number[] {
  const times: number[] = [];
  onNetworkStats(network, (_stats, counted) => {
    if (counted === 'sent') times.push(Date.now());
  });
  return times;
}

/** Waits for a condition the engine reaches by itself (a trigger, not a test's syncNow). */
export async function until(condition: () => Promise<boolean>, timeoutMs = 15_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error('condition not reached in time');
    await sleep(10);
  }
}

async function readAll<T>(api: ApiClient, path: string): Promise<T[]> {
  const items: T[] = [];
  let cursor: string | null = null;
  do {
    const query: string = cursor ? `&cursor=${encodeURIComponent(cursor)}` : '';
    const response = await api.get<{ data: T[]; nextCursor: string | null }>(`${path}?limit=200${query}`);
    if (response.status !== 200) throw new Error(`GET ${path}: ${response.status} ${response.text}`);
    items.push(...response.body.data);
    cursor = response.body.nextCursor;
  } while (cursor);
  return items;
}

/** Every person check-in of the site, whatever its status, as the server has it. */
export const serverPeople = (site: KioskSite) =>
  readAll<PersonCheckin>(site.api, `/v1/sites/${site.siteId}/checkins/people`);
export const serverVehicles = (site: KioskSite) =>
  readAll<VehicleCheckin>(site.api, `/v1/sites/${site.siteId}/checkins/vehicles`);

/** What Needs attention lists now, read once from its live query. */
export function attentionOf(kiosk: Pick<Kiosk, 'needsAttention'>): Promise<AttentionItem[]> {
  return new Promise<AttentionItem[]>((resolve) => {
    const stop = kiosk.needsAttention.subscribe((items) => {
      queueMicrotask(() => stop());
      resolve(items);
    });
  });
}

/**
 * Makes the kiosk's cached forms look as a kiosk kept them before form versions: naming no version, a check-in
 * made on one is checked against the server's current form. The way to have a check-in refused for a field
 * the cached form lacks (a kiosk with a versioned copy is accepted, with incompleteFields).
 */
export const forgetFormVersions = (kiosk: Pick<Kiosk, 'db'>) =>
  kiosk.db.siteConfigs.toCollection().modify((row) => {
    delete row.config.version;
  });
