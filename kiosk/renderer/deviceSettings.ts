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

/** `?server=…&token=…&site=…&mode=visitor|gate&pin=…`: any subset, each value checked like a saved setting. */
export function presetFromQuery(search: string): PresetSettings {
  const params = new URLSearchParams(search);
  const raw = {
    serverUrl: params.get('server') ?? undefined,
    token: params.get('token') ?? undefined,
    siteId: params.has('site') ? Number(params.get('site')) : undefined,
    mode: params.get('mode') ?? undefined,
    settingsPin: params.get('pin') ?? undefined,
  };
  const preset: PresetSettings = {};
  for (const [key, value] of Object.entries(raw) as Array<[keyof typeof raw, unknown]>) {
    if (value !== undefined) Object.assign(preset, presetValue(key, value));
  }
  if (raw.settingsPin !== undefined && preset.settingsPin === undefined) preset.settingsPinInvalid = true;
  return preset;
}

/** What this device was told to use: the Electron app's kiosk.json/env, then the page's query string. */
export async function readPreset(win: Window, search: string): Promise<PresetSettings> {
  const fromApp = (await kioskBridge(win)?.presetSettings()) ?? {};
  return { ...fromApp, ...presetFromQuery(search) };
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
