import fs from 'node:fs';
import path from 'node:path';
import { presetValue } from '../src/data/settings';
import type { PresetSettings } from '../preload/bridge';

export interface LoadedSettings {
  settings: PresetSettings;
  /** One plain line per value that was ignored, for the log. */
  problems: string[];
}

/**
 * The keys a file or variable may set (the invalid-PIN flag and the problems are the loader's own conclusions;
 * a pairing code is short-lived, typed or scanned on the setup screen, never preset).
 */
type PresetKey = Exclude<keyof PresetSettings, 'settingsPinInvalid' | 'problems' | 'pairingCode'>;
type Raw = Partial<Record<PresetKey, unknown>>;

/** What `kiosk.json` gave: its values, and whether a file was there that could not be used at all. */
interface FileValues {
  raw: Raw;
  /** A file exists but is unreadable, not JSON or not an object: whatever PIN it held is unknown. */
  unusable: boolean;
}

function readKioskJson(file: string, problems: string[]): FileValues {
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (error) {
    // No file is the normal case: the kiosk is then paired on its setup screen.
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { raw: {}, unusable: false };
    problems.push(`${file} could not be read (${(error as NodeJS.ErrnoException).code ?? 'error'}); ignored`);
    return { raw: {}, unusable: true };
  }
  try {
    // Windows editors (Notepad, PowerShell's Out-File) may save UTF-8 with a byte-order mark, which JSON.parse refuses.
    const parsed: unknown = JSON.parse(text.replace(/^\uFEFF/, ''));
    if (typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed)) {
      const { serverUrl, token, siteId, mode, settingsPin } = parsed as Record<string, unknown>;
      return { raw: { serverUrl, token, siteId, mode, settingsPin }, unusable: false };
    }
    problems.push(`${file} is not a JSON object; ignored`);
  } catch {
    // Not the parser's message: it may quote the text around the mistake, the kiosk token with it.
    problems.push(`${file} is not valid JSON; ignored`);
  }
  return { raw: {}, unusable: true };
}

/** Each preset key and the variable that overrides it. */
const variables: Record<PresetKey, string> = {
  serverUrl: 'KIOSK_SERVER_URL',
  token: 'KIOSK_TOKEN',
  siteId: 'KIOSK_SITE_ID',
  mode: 'KIOSK_MODE',
  settingsPin: 'KIOSK_SETTINGS_PIN',
};

function fromEnv(env: NodeJS.ProcessEnv): Raw {
  const raw: Raw = {};
  for (const [key, name] of Object.entries(variables) as Array<[PresetKey, string]>) {
    const value = env[name]?.trim();
    // An empty (or blank) variable counts as unset, as for the server's variables.
    if (value === undefined || value === '') continue;
    raw[key] = key === 'siteId' ? Number(value) : value;
  }
  return raw;
}

/**
 * The kiosk's preset settings: `kiosk.json` in the user-data folder, each value overridden by its
 * KIOSK_* variable. Invalid values are dropped with a problem line rather than stopping the app: the
 * setup screen can still pair a kiosk whose file is wrong. A file that is there but cannot be used
 * keeps Settings shut unless KIOSK_SETTINGS_PIN gives a valid PIN. An invalid variable falls back to the file's
 * value for that key, so a typo in KIOSK_MODE does not leave an otherwise complete preset incomplete.
 */
export function loadSettings(input: { userDataDir: string; env: NodeJS.ProcessEnv }): LoadedSettings {
  const problems: string[] = [];
  const file = path.join(input.userDataDir, 'kiosk.json');
  const { raw: fromFile, unusable } = readKioskJson(file, problems);
  const fromVariables = fromEnv(input.env);
  const settings: PresetSettings = {};
  for (const key of Object.keys(variables) as PresetKey[]) {
    let valid: PresetSettings | undefined;
    if (fromVariables[key] !== undefined) {
      valid = presetValue(key, fromVariables[key]);
      if (!valid) {
        const fallback = fromFile[key] === undefined ? '' : `; using ${key} from ${file} instead`;
        problems.push(`Ignored an invalid ${key} in ${variables[key]}${fallback}`);
      }
    }
    if (!valid && fromFile[key] !== undefined) {
      valid = presetValue(key, fromFile[key]);
      if (!valid) problems.push(`Ignored an invalid ${key} in ${file}`);
    }
    if (valid) Object.assign(settings, valid);
    // A PIN that was meant but cannot be used must not leave Settings open; nor may a file that could
    // not be read, which may have held one (a typo in kiosk.json must not unlock the kiosk).
    else if (key === 'settingsPin' && (unusable || fromVariables[key] !== undefined || fromFile[key] !== undefined)) {
      settings.settingsPinInvalid = true;
    }
  }
  return { settings, problems };
}
