import { type FormEvent, useEffect, useRef, useState } from 'react';

/**
 * Wrong PINs in a row, how many pauses so far, and until when the prompt is paused: kept above the prompt
 * (by the app), so leaving it, unpairing or re-pairing resets none of it.
 */
export interface PinTries {
  wrong: number;
  pauses: number;
  pausedUntil: number;
}

export const NO_TRIES: PinTries = { wrong: 0, pauses: 0, pausedUntil: 0 };

interface PinPromptProps {
  pin: string;
  tries: PinTries;
  onTries(tries: PinTries): void;
  onUnlock(): void;
  /** Absent where there is nothing to go back to (an unpaired kiosk). */
  onCancel?: () => void;
}

/** Wrong PINs in a row before the prompt pauses; the pause is a minute, doubling each time, up to an hour. */
const TRIES = 5;
const PAUSE_MS = 60_000;
const LONGEST_PAUSE_MS = 60 * 60_000;

const pauseWords = (ms: number) => {
  const minutes = Math.max(1, Math.round(ms / 60_000));
  return minutes === 1 ? 'a minute' : `${minutes} minutes`;
};

/** Asks for the Settings PIN before the setup screen opens (kiosk.json `settingsPin`, or `?pin=`). */
export function PinPrompt({ pin, tries, onTries, onUnlock, onCancel }: PinPromptProps) {
  const [entered, setEntered] = useState('');
  const [message, setMessage] = useState<string>();
  const input = useRef<HTMLInputElement>(null);
  const paused = tries.pausedUntil > 0;

  useEffect(() => input.current?.focus(), [paused]);
  useEffect(() => {
    if (!paused) return undefined;
    const timer = setTimeout(() => {
      onTries({ ...tries, pausedUntil: 0 });
      setMessage(undefined);
    }, Math.max(0, tries.pausedUntil - Date.now()));
    return () => clearTimeout(timer);
  }, [paused, tries, onTries]);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (paused) return;
    if (entered === pin) {
      onTries(NO_TRIES);
      onUnlock();
      return;
    }
    setEntered('');
    input.current?.focus();
    if (tries.wrong + 1 >= TRIES) {
      const pause = Math.min(LONGEST_PAUSE_MS, PAUSE_MS * 2 ** tries.pauses);
      onTries({ wrong: 0, pauses: tries.pauses + 1, pausedUntil: Date.now() + pause });
      return;
    }
    onTries({ ...tries, wrong: tries.wrong + 1 });
    setMessage('That PIN is not right.');
  };

  const shown = paused ? `Too many wrong PINs. Try again in ${pauseWords(tries.pausedUntil - Date.now())}.` : message;
  return (
    <form className="setup" onSubmit={submit} noValidate autoComplete="off" aria-labelledby="pin-title">
      <h1 id="pin-title" className="screen-title">Settings are locked</h1>
      <p className="screen-lead">Enter the settings PIN of this kiosk.</p>
      {shown ? <p className="form-error" role="alert">{shown}</p> : null}
      <div className="field">
        <label htmlFor="settings-pin">Settings PIN</label>
        <input id="settings-pin" ref={input} type="password" inputMode="numeric" maxLength={12} value={entered} disabled={paused}
          onChange={(event) => setEntered(event.target.value.trim())} />
      </div>
      <div className="form-actions">
        {onCancel ? <button type="button" className="button button-secondary" onClick={onCancel}>Back</button> : null}
        <button type="submit" className="button button-primary button-wide" disabled={paused}>Unlock</button>
      </div>
    </form>
  );
}
