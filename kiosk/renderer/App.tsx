import { useEffect, useState } from 'react';
import { KioskDatabase } from '../src/data/database';
import { type KioskSettings, readSavedPin, readSettings, savePin, saveSettings } from '../src/data/settings';
import type { PresetSettings } from '../preload/bridge';
import { StatusBar } from './components/StatusBar';
import { idleDelay } from './hooks/useIdleReset';
import { useSessionState } from './hooks/useSessionState';
import {
  DEVICE_DATABASE,
  appPreset,
  completePreset,
  forgetQuery,
  presetFromQuery,
  sameSettings,
  startPreset,
} from './deviceSettings';
import { KioskShell } from './KioskShell';
import { NO_TRIES, type PinTries } from './screens/pinTries';
import { PinSuggestion } from './screens/PinSuggestion';
import { type SettingsLock, SettingsGate } from './screens/SettingsGate';
import { SetupScreen } from './screens/SetupScreen';
import { UPDATE_QUIET_FACTOR, useUpdateWhenQuiet } from './update/useUpdateWhenQuiet';

type Boot =
  | { state: 'starting' }
  | {
      state: 'ready';
      settings: KioskSettings | undefined;
      prefill: PresetSettings;
      notice: string | undefined;
      /** What the app ignored in its preset (kiosk.json, KIOSK_*), shown on the setup screen. */
      presetProblems: string[];
      lock: SettingsLock | undefined;
      /** The lock once the device is unpaired (which forgets a PIN saved from an address): the app's alone. */
      appLock: SettingsLock | undefined;
      /** Just paired on the setup screen with no PIN: suggest one before the kiosk opens. */
      suggestPin?: boolean;
    };

/**
 * What guards Settings: a PIN setting that is wrong keeps it shut; else the preset's PIN (kiosk.json/env,
 * read at every start, or an address's), else one an address gave this device earlier (kept until unpairing).
 */
function settingsLock(preset: PresetSettings, savedPin: string | undefined): SettingsLock | undefined {
  if (preset.settingsPinInvalid) return { kind: 'invalid' };
  const pin = preset.settingsPin ?? savedPin;
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
  // Wrong PINs are counted for the whole page, and kept through a reload: no screen change resets them.
  const [pinTries, setPinTries] = useSessionState<PinTries>('gatehouse-pin-tries', NO_TRIES);
  // A newer build (browser kiosks) reloads the page once the queue is empty and nobody is using the kiosk.
  useUpdateWhenQuiet(device, idleDelay() * UPDATE_QUIET_FACTOR);

  useEffect(() => {
    let current = true;
    // Read before anything awaits: a second run of this effect (StrictMode) must see the same query.
    const search = window.location.search;
    void (async () => {
      const { problems: presetProblems = [], ...fromApp } = await appPreset(window).catch((): PresetSettings => ({}));
      const fromQuery = presetFromQuery(search);
      const savedPin = await readSavedPin(device);
      const before = await readSettings(device);
      const { preset, ignored } = startPreset({ fromApp, fromQuery, savedPin, current: before });
      let notice = ignored
        ? 'The settings in the address were not applied: Settings are locked with a PIN.'
        : undefined;
      // A PIN in the address is kept on the device, so a reload without it does not open Settings.
      if (!ignored && fromQuery.settingsPin !== undefined) await savePin(device, fromQuery.settingsPin);
      const complete = completePreset(preset);
      if (complete && !sameSettings(complete, before)) {
        const change = await saveSettings(device, complete);
        if (!change.ok) notice = `The preset settings were not applied: ${change.message}`;
      }
      const settings = await readSettings(device);
      forgetQuery(window);
      const lock = settingsLock(preset, savedPin);
      if (current)
        setBoot({
          state: 'ready',
          settings,
          prefill: preset,
          notice,
          presetProblems,
          lock,
          appLock: settingsLock(fromApp, undefined),
        });
    })();
    return () => {
      current = false;
    };
  }, [device]);

  if (boot.state === 'starting') {
    return (
      <div className="shell">
        <main className="screen">
          <p className="loading">Starting…</p>
        </main>
        <StatusBar status={undefined} />
      </div>
    );
  }
  // Unpairing forgets a PIN saved from an address (kiosk/src/data/settings.ts): the app's lock alone is left.
  const saved = (settings: KioskSettings | undefined) => {
    const lock = settings === undefined ? boot.appLock : boot.lock;
    setBoot({
      ...boot,
      settings,
      notice: undefined,
      lock,
      suggestPin: boot.settings === undefined && settings !== undefined && lock === undefined,
    });
  };
  if (boot.settings && boot.suggestPin) {
    const setPin = async (pin: string) => {
      await savePin(device, pin);
      setBoot({ ...boot, suggestPin: false, lock: { kind: 'pin', pin } });
    };
    return (
      <div className="shell">
        <header className="top-bar">
          <span className="brand">Gatehouse</span>
        </header>
        <main className="screen">
          <PinSuggestion onSet={setPin} onSkip={() => setBoot({ ...boot, suggestPin: false })} />
        </main>
        <StatusBar status={undefined} note="Paired" />
      </div>
    );
  }
  if (!boot.settings) {
    return (
      <div className="shell">
        <header className="top-bar">
          <span className="brand">Gatehouse</span>
        </header>
        <main className="screen">
          <SettingsGate lock={boot.lock} tries={pinTries} onTries={setPinTries}>
            <SetupScreen
              device={device}
              current={undefined}
              prefill={boot.prefill}
              presetProblems={boot.presetProblems}
              onSaved={saved}
            />
          </SettingsGate>
        </main>
        <StatusBar status={undefined} note="Not paired" />
      </div>
    );
  }
  return (
    <KioskShell
      device={device}
      settings={boot.settings}
      notice={boot.notice}
      presetProblems={boot.presetProblems}
      settingsLock={boot.lock}
      pinTries={pinTries}
      onPinTries={setPinTries}
      onSettingsSaved={saved}
    />
  );
}
