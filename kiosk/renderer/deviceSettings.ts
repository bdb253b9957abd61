import { KioskSettings, presetValue } from '../src/data/settings';
import { type KioskBridge, type PresetSettings, bridgeKey } from '../preload/bridge';

/**
 * One IndexedDB database per device: it holds the pairing settings and the outbox together, so the rule
 * "no unpairing while actions are pending" is checked in one transaction (kiosk/src/data/settings.ts).
 */
export const DEVICE_DATABASE = 'gatehouse-kiosk';

/** The Electron preload's bridge, when the renderer runs inside the app (absent in a browser tab). */
export function kioskBridge(win: Window): KioskBridge | undefined {
  const candidate = (win as Window & { [bridgeKey]?: KioskBridge })[bridgeKey];
  return candidate?.platform === 'electron' ? candidate : undefined;
}

/** `?server=…&token=…&site=…&mode=visitor|gate&pin=…&code=…`: any subset, each value checked like a saved setting. */
export function presetFromQuery(search: string): PresetSettings {
  const params = new URLSearchParams(search);
  const raw = {
    serverUrl: params.get('server') ?? undefined,
    token: params.get('token') ?? undefined,
    siteId: params.has('site') ? Number(params.get('site')) : undefined,
    mode: params.get('mode') ?? undefined,
    settingsPin: params.get('pin') ?? undefined,
    pairingCode: params.get('code') ?? undefined,
  };
  const preset: PresetSettings = {};
  for (const [key, value] of Object.entries(raw) as Array<[keyof typeof raw, unknown]>) {
    if (value !== undefined) Object.assign(preset, presetValue(key, value));
  }
  if (raw.settingsPin !== undefined && preset.settingsPin === undefined) preset.settingsPinInvalid = true;
  return preset;
}

/** What the Electron app was told to use (kiosk.json/env); nothing in a browser. */
export async function appPreset(win: Window): Promise<PresetSettings> {
  return (await kioskBridge(win)?.presetSettings()) ?? {};
}

/**
 * The preset this start uses: the app's (kiosk.json/env: the operator's, always taken), then the address's.
 * While Settings is locked (a PIN from the app, or one saved on the device), an address that would change
 * the pairing or the PIN is not taken at all (`ignored`): else anyone could re-pair the kiosk, or give it
 * a PIN of their own, by typing an address. One that changes nothing (the same pairing, the same PIN) is
 * taken quietly, as after a reload.
 */
export function startPreset(input: {
  fromApp: PresetSettings;
  fromQuery: PresetSettings;
  savedPin: string | undefined;
  current: KioskSettings | undefined;
}): { preset: PresetSettings; ignored: boolean } {
  const { fromApp, fromQuery, savedPin, current } = input;
  const locked = fromApp.settingsPin !== undefined || fromApp.settingsPinInvalid === true || savedPin !== undefined;
  const { settingsPin, settingsPinInvalid, ...pairing } = fromQuery;
  const paired = completePreset({ ...fromApp, ...pairing });
  const changesPairing = Object.keys(pairing).length > 0 && !(paired && sameSettings(paired, current));
  const changesPin = settingsPinInvalid === true || (settingsPin !== undefined && settingsPin !== savedPin);
  if (locked && (changesPairing || changesPin)) return { preset: fromApp, ignored: true };
  return { preset: { ...fromApp, ...fromQuery }, ignored: false };
}

/** The preset as complete settings, if it names all four. */
export function completePreset(preset: PresetSettings): KioskSettings | undefined {
  const parsed = KioskSettings.safeParse(preset);
  return parsed.success ? parsed.data : undefined;
}

/** The token should not linger in the address bar or the history once it has been saved. */
export function forgetQuery(win: Window): void {
  if (win.location.search === '') return;
  win.history.replaceState(null, '', win.location.pathname + win.location.hash);
}

export const sameSettings = (a: KioskSettings | undefined, b: KioskSettings | undefined) =>
  a?.serverUrl === b?.serverUrl && a?.token === b?.token && a?.siteId === b?.siteId && a?.mode === b?.mode;
