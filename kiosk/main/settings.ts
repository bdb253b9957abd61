import fs from 'node:fs';
import path from 'node:path';
import { KioskSettings } from '../src/data/settings';
import type { PresetSettings } from '../preload/bridge';

export interface LoadedSettings {
  settings: PresetSettings;
  /** One plain line per value that was ignored, for the log. */
  problems: string[];
}

type Raw = Partial<Record<keyof PresetSettings, unknown>>;

function readKioskJson(file: string, problems: string[]): Raw {
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch {
    return {}; // No file is the normal case: the kiosk is then paired on its setup screen.
  }
  try {
    const parsed: unknown = JSON.parse(text);
    if (typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed)) {
      const { serverUrl, token, siteId, mode } = parsed as Record<string, unknown>;
      return { serverUrl, token, siteId, mode };
    }
    problems.push(`${file} is not a JSON object; ignored`);
  } catch {
    problems.push(`${file} is not valid JSON; ignored`);
  }
  return {};
}

function fromEnv(env: NodeJS.ProcessEnv): Raw {
  const raw: Raw = {};
  // An empty variable counts as unset, as for the server's variables.
  const value = (name: string) => (env[name] === undefined || env[name] === '' ? undefined : env[name]);
  if (value('KIOSK_SERVER_URL') !== undefined) raw.serverUrl = value('KIOSK_SERVER_URL');
  if (value('KIOSK_TOKEN') !== undefined) raw.token = value('KIOSK_TOKEN');
  if (value('KIOSK_SITE_ID') !== undefined) raw.siteId = Number(value('KIOSK_SITE_ID'));
  if (value('KIOSK_MODE') !== undefined) raw.mode = value('KIOSK_MODE');
  return raw;
}

/**
 * The kiosk's preset settings: `kiosk.json` in the user-data folder, each value overridden by its
 * KIOSK_* variable. Invalid values are dropped with a problem line rather than stopping the app: the
 * setup screen can still pair a kiosk whose file is wrong.
 */
export function loadSettings(input: { userDataDir: string; env: NodeJS.ProcessEnv }): LoadedSettings {
  const problems: string[] = [];
  const file = path.join(input.userDataDir, 'kiosk.json');
  const merged: Raw = { ...readKioskJson(file, problems), ...fromEnv(input.env) };
  const settings: PresetSettings = {};
  const keys: Array<keyof PresetSettings> = ['serverUrl', 'token', 'siteId', 'mode'];
  for (const key of keys) {
    if (merged[key] === undefined) continue;
    // One key at a time, so a wrong mode does not throw away a good server URL.
    const parsed = KioskSettings.partial().safeParse({ [key]: merged[key] });
    if (parsed.success) Object.assign(settings, parsed.data);
    else problems.push(`Ignored an invalid ${key} (from ${file} or its KIOSK_* variable)`);
  }
  return { settings, problems };
}
