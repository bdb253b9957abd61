import { type ReactNode, useState } from 'react';
import { PinPrompt } from './PinPrompt';
import type { PinTries } from './pinTries';

/** What stands before Settings: a PIN, or a PIN setting that is wrong (then Settings stays shut: fail closed). */
export type SettingsLock = { kind: 'pin'; pin: string } | { kind: 'invalid' };

interface SettingsGateProps {
  lock: SettingsLock | undefined;
  tries: PinTries;
  onTries(tries: PinTries): void;
  onCancel?: () => void;
  children: ReactNode;
}

/** Shows `children` (the setup screen) once the PIN is entered; each time the gate is shown anew it asks again. */
export function SettingsGate({ lock, tries, onTries, onCancel, children }: SettingsGateProps) {
  const [unlocked, setUnlocked] = useState(false);
  if (lock === undefined || unlocked) return <>{children}</>;
  if (lock.kind === 'pin') return <PinPrompt pin={lock.pin} tries={tries} onTries={onTries} onUnlock={() => setUnlocked(true)} onCancel={onCancel} />;
  return (
    <div className="setup">
      <h1 className="screen-title">Settings are locked</h1>
      <p className="form-error" role="alert">
        The settings PIN set for this kiosk is not 4 to 12 digits, so Settings stay locked. Correct it (settingsPin in kiosk.json,
        KIOSK_SETTINGS_PIN, or pin= in the address) and start the kiosk again.
      </p>
      {onCancel ? <div className="form-actions"><button type="button" className="button button-secondary" onClick={onCancel}>Back</button></div> : null}
    </div>
  );
}
