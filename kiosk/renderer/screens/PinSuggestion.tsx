import { type FormEvent, useEffect, useRef, useState } from 'react';
import { SettingsPin } from '../../src/data/settings';

interface PinSuggestionProps {
  /** Saves the PIN on this device; it locks Settings, Roll call and Needs attention from then on. */
  onSet: (pin: string) => Promise<void>;
  onSkip: () => void;
}

/**
 * Shown once a kiosk is paired without a Settings PIN: anyone in the lobby could otherwise unpair it or
 * read every visitor's name on Roll call. A suggestion, not a step that must be taken.
 */
export function PinSuggestion({ onSet, onSkip }: PinSuggestionProps) {
  const [pin, setPin] = useState('');
  const [again, setAgain] = useState('');
  const [message, setMessage] = useState<string>();
  const input = useRef<HTMLInputElement>(null);
  useEffect(() => input.current?.focus(), []);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!SettingsPin.safeParse(pin).success) {
      setMessage('Please choose a PIN of 4 to 12 digits.');
      return;
    }
    if (pin !== again) {
      setMessage('The two PINs are not the same. Please type it again.');
      setAgain('');
      return;
    }
    await onSet(pin);
  };

  return (
    <form
      className="setup"
      onSubmit={(event) => void submit(event)}
      noValidate
      autoComplete="off"
      aria-labelledby="suggest-title"
    >
      <h1 id="suggest-title" className="screen-title">
        Set a settings PIN?
      </h1>
      <p className="screen-lead">
        The kiosk is paired. Without a PIN, anyone at it can open Settings and unpair it, and read the names on Roll
        call and Needs attention. With a PIN, these ask for it first.
      </p>
      {message ? (
        <p className="form-error" role="alert">
          {message}
        </p>
      ) : null}
      <div className="field">
        <label htmlFor="new-pin">New settings PIN</label>
        <input
          id="new-pin"
          ref={input}
          type="password"
          inputMode="numeric"
          maxLength={12}
          value={pin}
          aria-describedby="new-pin-hint"
          onChange={(event) => setPin(event.target.value.trim())}
        />
        <span id="new-pin-hint" className="field-hint">
          4 to 12 digits. It stays on this device until the kiosk is unpaired.
        </span>
      </div>
      <div className="field">
        <label htmlFor="new-pin-again">The same PIN again</label>
        <input
          id="new-pin-again"
          type="password"
          inputMode="numeric"
          maxLength={12}
          value={again}
          onChange={(event) => setAgain(event.target.value.trim())}
        />
      </div>
      <div className="form-actions">
        <button type="button" className="button button-secondary" onClick={onSkip}>
          Not now
        </button>
        <button type="submit" className="button button-primary button-wide">
          Set PIN
        </button>
      </div>
    </form>
  );
}
