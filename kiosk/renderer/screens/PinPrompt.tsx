import { type FormEvent, useEffect, useRef, useState } from 'react';
import { type PinTries, afterEntry, pausedText } from './pinTries';

/** What the PIN opens: Settings, or a staff view (Roll call, Needs attention) of visitors' names. */
export type LockedView = 'Settings' | 'Roll call' | 'Needs attention';

interface PinPromptProps {
  pin: string;
  what?: LockedView;
  tries: PinTries;
  onTries: (tries: PinTries) => void;
  onUnlock: () => void;
  /** Absent where there is nothing to go back to (an unpaired kiosk). */
  onCancel?: () => void;
}

/**
 * Asks for the Settings PIN (kiosk.json `settingsPin`, or `?pin=`) before Settings, Roll call or Needs
 * attention opens: one prompt, one count of wrong PINs.
 */
export function PinPrompt({ pin, what = 'Settings', tries, onTries, onUnlock, onCancel }: PinPromptProps) {
  const [entered, setEntered] = useState('');
  const [message, setMessage] = useState<string>();
  const input = useRef<HTMLInputElement>(null);
  const paused = tries.pausedUntil > 0;

  useEffect(() => input.current?.focus(), [paused]);
  useEffect(() => {
    if (!paused) return undefined;
    const timer = setTimeout(
      () => {
        onTries({ ...tries, pausedUntil: 0 });
        setMessage(undefined);
      },
      Math.max(0, tries.pausedUntil - Date.now()),
    );
    return () => clearTimeout(timer);
  }, [paused, tries, onTries]);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (paused) return;
    const right = entered === pin;
    const next = afterEntry(tries, right, Date.now());
    onTries(next);
    if (right) {
      onUnlock();
      return;
    }
    setEntered('');
    input.current?.focus();
    if (next.pausedUntil === 0) setMessage('That PIN is not right.');
  };

  const shown = paused ? pausedText(tries.pausedUntil, Date.now()) : message;
  return (
    <form className="setup" onSubmit={submit} noValidate autoComplete="off" aria-labelledby="pin-title">
      <h1 id="pin-title" className="screen-title">
        {lockedTitle(what)}
      </h1>
      <p className="screen-lead">
        {what === 'Settings'
          ? 'Enter the settings PIN of this kiosk.'
          : `${what} is for staff. Enter the settings PIN of this kiosk.`}
      </p>
      {shown ? (
        <p className="form-error" role="alert">
          {shown}
        </p>
      ) : null}
      <div className="field">
        <label htmlFor="settings-pin">Settings PIN</label>
        <input
          id="settings-pin"
          ref={input}
          type="password"
          inputMode="numeric"
          maxLength={12}
          value={entered}
          disabled={paused}
          onChange={(event) => setEntered(event.target.value.trim())}
        />
      </div>
      <div className="form-actions">
        {onCancel ? (
          <button type="button" className="button button-secondary" onClick={onCancel}>
            Back
          </button>
        ) : null}
        <button type="submit" className="button button-primary button-wide" disabled={paused}>
          Unlock
        </button>
      </div>
    </form>
  );
}

/** "Settings are locked", "Roll call is locked". */
export const lockedTitle = (what: LockedView) => `${what} ${what === 'Settings' ? 'are' : 'is'} locked`;
