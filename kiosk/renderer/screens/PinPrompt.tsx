import { type FormEvent, useEffect, useRef, useState } from 'react';

/** Wrong PINs so far, and until when the prompt is paused: kept by the shell, so leaving the prompt resets neither. */
export interface PinTries {
  wrong: number;
  pausedUntil: number;
}

export const NO_TRIES: PinTries = { wrong: 0, pausedUntil: 0 };

interface PinPromptProps {
  pin: string;
  tries: PinTries;
  onTries(tries: PinTries): void;
  onUnlock(): void;
  onCancel(): void;
}

/** Wrong PINs in a row before the prompt pauses, and for how long. */
const TRIES = 5;
const PAUSE_MS = 60_000;

/** Asks for the deployment's Settings PIN before the setup screen opens (kiosk.json `settingsPin`). */
export function PinPrompt({ pin, tries, onTries, onUnlock, onCancel }: PinPromptProps) {
  const [entered, setEntered] = useState('');
  const [message, setMessage] = useState<string>();
  const input = useRef<HTMLInputElement>(null);
  const paused = tries.pausedUntil > 0;

  useEffect(() => input.current?.focus(), [paused]);
  useEffect(() => {
    if (!paused) return undefined;
    const timer = setTimeout(() => {
      onTries(NO_TRIES);
      setMessage(undefined);
    }, tries.pausedUntil - Date.now());
    return () => clearTimeout(timer);
  }, [paused, tries.pausedUntil, onTries]);

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
      onTries({ wrong: 0, pausedUntil: Date.now() + PAUSE_MS });
      return;
    }
    onTries({ wrong: tries.wrong + 1, pausedUntil: 0 });
    setMessage('That PIN is not right.');
  };

  const shown = paused ? 'Too many wrong PINs. Try again in a minute.' : message;
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
        <button type="button" className="button button-secondary" onClick={onCancel}>Back</button>
        <button type="submit" className="button button-primary button-wide" disabled={paused}>Unlock</button>
      </div>
    </form>
  );
}
