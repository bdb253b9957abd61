import { z } from 'zod';
import { apiBaseUrl } from '../../../shared/src/client';
import { Id } from '../../../shared/src/schemas/common';
import type { PresetSettings } from '../../preload/bridge';
import type { KioskDatabase } from './database';
import { clearVehicleDirectory } from './vehicleDirectory';

export const KioskSettings = z.object({
  serverUrl: z.string().url(),
  token: z.string().min(1),
  siteId: Id,
  mode: z.enum(['visitor', 'gate']),
  /** The kiosk's name in the console, when it was paired with a code. */
  kioskName: z.string().optional(),
});
export type KioskSettings = z.infer<typeof KioskSettings>;

/** The PIN a deployment may set for the Settings screen: device configuration, never saved with the pairing. */
export const SettingsPin = z.string().regex(/^[0-9]{4,12}$/);

/** A pairing code given in a browser's address (`?code=`), for the setup screen to show. */
const Preset = KioskSettings.extend({
  settingsPin: SettingsPin,
  pairingCode: z.string().trim().min(1).max(64),
}).partial();

/** One preset value checked on its own (so a wrong mode does not throw away a good server URL), or undefined. */
export function presetValue(
  key: Exclude<keyof PresetSettings, 'settingsPinInvalid' | 'problems'>,
  value: unknown,
): PresetSettings | undefined {
  const parsed = Preset.safeParse({ [key]: value });
  return parsed.success ? parsed.data : undefined;
}

const KEY = 'settings';
/** A Settings PIN given in a browser's address (`?pin=`), kept on the device until another replaces it or the kiosk is unpaired. */
const PIN_KEY = 'settingsPin';

export async function readSavedPin(db: KioskDatabase): Promise<string | undefined> {
  const parsed = SettingsPin.safeParse((await db.meta.get(PIN_KEY))?.value);
  return parsed.success ? parsed.data : undefined;
}

export async function savePin(db: KioskDatabase, pin: string): Promise<void> {
  await db.meta.put({ key: PIN_KEY, value: SettingsPin.parse(pin) });
}

/**
 * When the people on a site were last read in full from the server (device time, ms): how old the Roll
 * call may be. Kept in the database so a reload still knows; forgotten when the pairing moves.
 */
const PULLED_KEY = 'peoplePulledAt';
/** Where the kiosk is in its site's people feed (sync/peopleFeedPull.ts): it goes with the people it dates. */
export const PEOPLE_FEED_CURSOR = 'peopleFeedCursor';
const PeoplePulledAt = z.object({ siteId: Id, at: z.number() });

/** Inside a transaction over `meta` (the pull's own). */
export async function recordPeoplePulledAt(db: KioskDatabase, siteId: number, at: number): Promise<void> {
  await db.meta.put({ key: PULLED_KEY, value: PeoplePulledAt.parse({ siteId, at }) });
}

/** The device time of the last full pull of the site's people, or undefined if there has been none. */
export async function readPeoplePulledAt(db: KioskDatabase, siteId: number): Promise<number | undefined> {
  const parsed = PeoplePulledAt.safeParse((await db.meta.get(PULLED_KEY))?.value);
  return parsed.success && parsed.data.siteId === siteId ? parsed.data.at : undefined;
}

export async function readSettings(db: KioskDatabase): Promise<KioskSettings | undefined> {
  const parsed = KioskSettings.safeParse((await db.meta.get(KEY))?.value);
  return parsed.success ? parsed.data : undefined;
}

/** The server and site a kiosk instance was opened for. */
export interface Pairing {
  serverUrl: string;
  siteId: number;
}

/** The same site on the same server, however its URL was written (`https://host`, `https://host/v1/`). */
const samePairing = (a: Pairing, b: Pairing) =>
  a.siteId === b.siteId && apiBaseUrl(a.serverUrl) === apiBaseUrl(b.serverUrl);

/**
 * Whether the device is still paired with `pairing` (or not paired at all, as in tests): for writes of
 * data that came from the server, inside their transaction over `meta`, so data from the old server
 * cannot land after a move to another one has cleared the local view.
 */
export async function stillPaired(db: KioskDatabase, pairing: Pairing): Promise<boolean> {
  const current = await readSettings(db);
  return current === undefined || samePairing(current, pairing);
}

export type SettingsChange = { ok: true } | { ok: false; code: 'ACTIONS_PENDING'; pending: number; message: string };

/**
 * Pairs the kiosk, or changes its settings. Moving to another server or site (or unpairing) while
 * actions are unsynced would strand them, so it is refused; changing the mode or the token is not. A
 * move (or a first pairing) starts from an empty local view: the visits and site configurations kept
 * belong to the old pairing, and check-in and site ids mean something else on another server.
 */
export async function saveSettings(db: KioskDatabase, next: KioskSettings | null): Promise<SettingsChange> {
  const tables = [
    db.meta,
    db.outbox,
    db.people,
    db.vehicles,
    db.siteConfigs,
    db.watchlistDigests,
    db.knownVehicles,
    db.vehicleLabels,
  ];
  return db.transaction('rw', tables, async (): Promise<SettingsChange> => {
    const current = await readSettings(db);
    const moves = current === undefined || next === null || !samePairing(next, current);
    const pending = await db.outbox.count();
    if (moves && current !== undefined && pending > 0) {
      return {
        ok: false,
        code: 'ACTIONS_PENDING',
        pending,
        message: `${pending} action${pending === 1 ? ' is' : 's are'} not synced yet; unpairing or changing site must wait.`,
      };
    }
    if (moves && pending === 0) {
      // The last pull's time goes with the view it dated: a new pairing has not been synced yet.
      await Promise.all([
        db.people.clear(),
        db.vehicles.clear(),
        db.siteConfigs.clear(),
        db.watchlistDigests.clear(),
        db.meta.delete(PULLED_KEY),
        db.meta.delete(PEOPLE_FEED_CURSOR),
        clearVehicleDirectory(db),
      ]);
    }
    // Unpairing resets the device, its saved Settings PIN too.
    if (next === null) await db.meta.bulkDelete([KEY, PIN_KEY]);
    else await db.meta.put({ key: KEY, value: KioskSettings.parse(next) });
    return { ok: true };
  });
}
