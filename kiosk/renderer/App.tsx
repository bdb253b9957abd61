import { useEffect, useState } from 'react';
import { KioskDatabase } from '../src/data/database';
import { type KioskSettings, readSavedPin, readSettings, savePin, saveSettings } from '../src/data/settings';
import type { PresetSettings } from '../preload/bridge';
import { StatusBar } from './components/StatusBar';
import { DEVICE_DATABASE, completePreset, forgetQuery, presetFromQuery, readPreset, sameSettings } from './deviceSettings';
import { KioskShell } from './KioskShell';
import { NO_TRIES, type PinTries } from './screens/PinPrompt';
import { type SettingsLock, SettingsGate } from './screens/SettingsGate';
import { SetupScreen } from './screens/SetupScreen';

type Boot =
  | { state: 'starting' }
  | { state: 'ready'; settings: KioskSettings | undefined; prefill: PresetSettings; notice: string | undefined; lock: SettingsLock | undefined };

/**
 * What guards Settings: a PIN setting that is wrong keeps it shut; else the app's PIN (kiosk.json/env, read
 * at every start), else one a browser address gave this device earlier (`?pin=`, kept until unpairing).
 */
async function settingsLock(device: KioskDatabase, preset: PresetSettings): Promise<SettingsLock | undefined> {
  if (preset.settingsPinInvalid) return { kind: 'invalid' };
  const pin = preset.settingsPin ?? (await readSavedPin(device));
  return pin === undefined ? undefined : { kind: 'pin', pin };
}

/**
 * Reads this device's pairing, applies a preset (kiosk.json/env in Electron, the query string in a
 * browser) when it is complete, then shows the kiosk, or the setup screen when it is not paired.
 */
export function App() {
  // The device database lives as long as the page: it is never closed, since Dexie does not reopen a
  // closed instance by itself and React may re-run effects.
  const [device] = useState(() => new KioskDatabase(DEVICE_DATABASE));
  const [boot, setBoot] = useState<Boot>({ state: 'starting' });
  // Wrong PINs are counted for the whole page, so no screen change (or unpairing) resets them.
  const [pinTries, setPinTries] = useState<PinTries>(NO_TRIES);

  useEffect(() => {
    let current = true;
    // Read before anything awaits: a second run of this effect (StrictMode) must see the same query.
    const search = window.location.search;
    void (async () => {
      const preset = await readPreset(window, search).catch((): PresetSettings => ({}));
      // A PIN in the address is kept on the device, so a reload without it does not open Settings.
      const addressPin = presetFromQuery(search).settingsPin;
      if (addressPin !== undefined) await savePin(device, addressPin);
      const complete = completePreset(preset);
      let notice: string | undefined;
      if (complete && !sameSettings(complete, await readSettings(device))) {
        const change = await saveSettings(device, complete);
        if (!change.ok) notice = `The preset settings were not applied: ${change.message}`;
      }
      const settings = await readSettings(device);
      forgetQuery(window);
      const lock = await settingsLock(device, preset);
      if (current) setBoot({ state: 'ready', settings, prefill: preset, notice, lock });
    })();
    return () => {
      current = false;
    };
  }, [device]);

  if (boot.state === 'starting') {
    return (
      <div className="shell">
        <main className="screen"><p className="loading">Starting…</p></main>
        <StatusBar status={undefined} />
      </div>
    );
  }
  const saved = (settings: KioskSettings | undefined) => setBoot({ ...boot, settings, notice: undefined });
  if (!boot.settings) {
    return (
      <div className="shell">
        <header className="top-bar"><span className="brand">Gatehouse</span></header>
        <main className="screen">
          <SettingsGate lock={boot.lock} tries={pinTries} onTries={setPinTries}>
            <SetupScreen device={device} current={undefined} prefill={boot.prefill} onSaved={saved} />
          </SettingsGate>
        </main>
        <StatusBar status={undefined} note="Not paired" />
      </div>
    );
  }
  return (
    <KioskShell device={device} settings={boot.settings} notice={boot.notice} settingsLock={boot.lock} pinTries={pinTries} onPinTries={setPinTries}
      onSettingsSaved={saved} />
  );
}
