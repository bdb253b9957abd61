import { useEffect, useState } from 'react';
import { readSavedPin } from '../../src/data/settings';
import type { Kiosk } from '../../src/kiosk';
import type { PresetSettings } from '../../preload/bridge';
import { appPreset } from '../deviceSettings';
import type { SettingsLock } from '../screens/SettingsGate';

/** The Settings lock as Discard sees it: still being read, or read (undefined: no PIN is set). */
export type DiscardLock = { state: 'reading' } | { state: 'read'; lock: SettingsLock | undefined };

/**
 * Discarding can take a person off the evacuation list, so where Settings is locked, Discard is too, with
 * the same PIN. Read as App reads it at start: the app's PIN (kiosk.json/env; a wrong one locks for good),
 * else the one an address gave this device, which App has saved in the device database by the time any
 * screen shows. (An address's PIN that is not 4 to 12 digits is never saved: it locks only Settings.)
 */
export function useDiscardLock(kiosk: Kiosk): DiscardLock {
  const [lock, setLock] = useState<DiscardLock>({ state: 'reading' });
  useEffect(() => {
    let current = true;
    void (async () => {
      const [fromApp, saved] = await Promise.all([appPreset(window).catch((): PresetSettings => ({})), readSavedPin(kiosk.db)]);
      const read: SettingsLock | undefined = fromApp.settingsPinInvalid ? { kind: 'invalid' } : pinOf(fromApp.settingsPin ?? saved);
      if (current) setLock({ state: 'read', lock: read });
    })();
    return () => {
      current = false;
    };
  }, [kiosk]);
  return lock;
}

const pinOf = (pin: string | undefined): SettingsLock | undefined => (pin === undefined ? undefined : { kind: 'pin', pin });
