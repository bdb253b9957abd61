/**
 * The contract between Electron's main process, the preload script and the renderer. Types and constants
 * only: the sandboxed preload bundles this file, so it must not pull in anything else.
 */

/** Settings a deployment may preset (kiosk.json or KIOSK_* variables); any of them may be missing. */
export interface PresetSettings {
  serverUrl?: string;
  token?: string;
  siteId?: number;
  mode?: 'visitor' | 'gate';
  /** A pairing code for the setup screen (a browser's `?code=`; never the app's preset). */
  pairingCode?: string;
  /** 4–12 digits asked before the Settings screen opens (unset: Settings is open to anyone at the kiosk). */
  settingsPin?: string;
  /** A PIN was set but is not 4–12 digits: Settings stays locked rather than open (fail closed). */
  settingsPinInvalid?: boolean;
  /** What the main process ignored in kiosk.json and the KIOSK_* variables, one plain line each (never a value). */
  problems?: string[];
}

/** What became of a badge sent to the printer (the same shape as the kiosk's BadgePrinter answers). */
export type BadgePrintOutcome = { printed: true } | { printed: false; reason: string };

/** What the renderer may ask of the main process: deliberately tiny (no Node, no IPC exposed as such). */
export interface KioskBridge {
  readonly platform: 'electron';
  /** The settings from kiosk.json and the KIOSK_* variables, already validated by the main process. */
  presetSettings: () => Promise<PresetSettings>;
  /** Prints a badge PDF silently on the printer kiosk.json or KIOSK_PRINTER names (none named: not printed). */
  printBadge: (pdf: Uint8Array) => Promise<BadgePrintOutcome>;
}

/** IPC channel names, shared so the main process and the preload cannot drift apart. */
export const bridgeChannels = {
  presetSettings: 'gatehouse:preset-settings',
  printBadge: 'gatehouse:print-badge',
} as const;

/** The name the bridge is exposed under: `window.gatehouse`. */
export const bridgeKey = 'gatehouse';
