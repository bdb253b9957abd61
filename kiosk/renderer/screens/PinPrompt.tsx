import { type FormEvent, useEffect, useRef, useState } from 'react';
import type { KioskMessage } from '../../../shared/src/messages/kiosk';
import { type KioskWords, useWords } from '../language/VisitorLanguage';
import { type PinTries, afterEntry, pauseMinutes } from './pinTries';

/** What the PIN opens: Settings, or a staff view (Roll call, Needs attention) of visitors' names. */
export type LockedView = 'Settings' | 'Roll call' | 'Needs attention';

// Anyone may tap a staff tab, so the prompt speaks the visitor's language; what it opens is English.
const prompts: Record<LockedView, { title: KioskMessage; lead: KioskMessage }> = {
  Settings: { title: 'pin.locked.settings', lead: 'pin.lead.settings' },
  'Roll call': { title: 'pin.locked.rollCall', lead: 'pin.lead.rollCall' },
  'Needs attention': { title: 'pin.locked.attention', lead: 'pin.lead.attention' },
};

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
  const words = useWords();
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
    if (next.pausedUntil === 0) setMessage(words.t('pin.wrong'));
  };

  const shown = paused ? words.t('pin.paused', { minutes: pauseMinutes(tries.pausedUntil, Date.now()) }) : message;
  return (
    <form className="setup" onSubmit={submit} noValidate autoComplete="off" aria-labelledby="pin-title">
      <h1 id="pin-title" className="screen-title">
        {lockedTitle(words, what)}
      </h1>
      <p className="screen-lead">{words.t(prompts[what].lead)}</p>
      {shown ? (
        <p className="form-error" role="alert">
          {shown}
        </p>
      ) : null}
      <div className="field">
        <label htmlFor="settings-pin">{words.t('pin.label')}</label>
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
            {words.t('pin.back')}
          </button>
        ) : null}
        <button type="submit" className="button button-primary button-wide" disabled={paused}>
          {words.t('pin.unlock')}
        </button>
      </div>
    </form>
  );
}

/** "Settings are locked", "Roll call is locked". */
export const lockedTitle = (words: KioskWords, what: LockedView) => words.t(prompts[what].title);
