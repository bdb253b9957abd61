import { useEffect, useState } from 'react';
import { KioskDatabase } from '../src/data/database';
import { type KioskSettings, readSettings, saveSettings } from '../src/data/settings';
import type { PresetSettings } from '../preload/bridge';
import { StatusBar } from './components/StatusBar';
import { DEVICE_DATABASE, completePreset, forgetQuery, readPreset, sameSettings } from './deviceSettings';
import { KioskShell } from './KioskShell';
import { SetupScreen } from './screens/SetupScreen';

type Boot =
  | { state: 'starting' }
  | { state: 'ready'; settings: KioskSettings | undefined; prefill: PresetSettings; notice: string | undefined };

/**
 * Reads this device's pairing, applies a preset (kiosk.json/env in Electron, the query string in a
 * browser) when it is complete, then shows the kiosk, or the setup screen when it is not paired.
 */
export function App() {
  // The device database lives as long as the page: it is never closed, since Dexie does not reopen a
  // closed instance by itself and React may re-run effects.
  const [device] = useState(() => new KioskDatabase(DEVICE_DATABASE));
  const [boot, setBoot] = useState<Boot>({ state: 'starting' });

  useEffect(() => {
    let current = true;
    // Read before anything awaits: a second run of this effect (StrictMode) must see the same query.
    const search = window.location.search;
    void (async () => {
      const preset = await readPreset(window, search).catch((): PresetSettings => ({}));
      const complete = completePreset(preset);
      let notice: string | undefined;
      if (complete && !sameSettings(complete, await readSettings(device))) {
        const change = await saveSettings(device, complete);
        if (!change.ok) notice = `The preset settings were not applied: ${change.message}`;
      }
      const settings = await readSettings(device);
      forgetQuery(window);
      if (current) setBoot({ state: 'ready', settings, prefill: preset, notice });
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
        <main className="screen"><SetupScreen device={device} current={undefined} prefill={boot.prefill} onSaved={saved} /></main>
        <StatusBar status={undefined} note="Not paired" />
      </div>
    );
  }
  return <KioskShell device={device} settings={boot.settings} notice={boot.notice} settingsPin={boot.prefill.settingsPin} onSettingsSaved={saved} />;
}
