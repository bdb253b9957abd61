import { type ReactNode, useState } from 'react';
import { StaffLanguage, useWords } from '../language/VisitorLanguage';
import { type LockedView, PinPrompt, lockedTitle } from './PinPrompt';
import type { PinTries } from './pinTries';

/** What stands before Settings: a PIN, or a PIN setting that is wrong (then Settings stays shut: fail closed). */
export type SettingsLock = { kind: 'pin'; pin: string } | { kind: 'invalid' };

interface SettingsGateProps {
  lock: SettingsLock | undefined;
  /** What it guards (Settings unless said): its name is in the prompt's title. */
  what?: LockedView;
  tries: PinTries;
  onTries: (tries: PinTries) => void;
  onCancel?: () => void;
  children: ReactNode;
}

/**
 * Shows `children` (the setup screen, Roll call, Needs attention) once the PIN is entered; each time the
 * gate is shown anew it asks again.
 */
export function SettingsGate({ lock, what = 'Settings', tries, onTries, onCancel, children }: SettingsGateProps) {
  const words = useWords();
  const [unlocked, setUnlocked] = useState(false);
  if (lock === undefined || unlocked) return <StaffLanguage>{children}</StaffLanguage>;
  if (lock.kind === 'pin') {
    return (
      <PinPrompt
        pin={lock.pin}
        what={what}
        tries={tries}
        onTries={onTries}
        onUnlock={() => setUnlocked(true)}
        onCancel={onCancel}
      />
    );
  }
  return (
    <div className="setup">
      <h1 className="screen-title">{lockedTitle(words, what)}</h1>
      {/* For whoever set the kiosk up: their words, in English. */}
      <p className="form-error" role="alert" lang="en" dir="ltr">
        The settings PIN set for this kiosk is not 4 to 12 digits, so {what} {what === 'Settings' ? 'stay' : 'stays'}{' '}
        locked. Correct it (settingsPin in kiosk.json, KIOSK_SETTINGS_PIN, or pin= in the address) and start the kiosk
        again.
      </p>
      {onCancel ? (
        <div className="form-actions">
          <button type="button" className="button button-secondary" onClick={onCancel}>
            {words.t('pin.back')}
          </button>
        </div>
      ) : null}
    </div>
  );
}
