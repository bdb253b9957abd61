import { type FormEvent, useEffect, useRef, useState } from 'react';
import type { AttentionItem } from '../../src/data/attention';
import { discardConsequence, discardLockedByBadPin, discardNeedsPin, discardQuestion } from './attentionWords';
import { type PinTries, afterEntry, pausedText } from './pinTries';
import type { SettingsLock } from './SettingsGate';
import './attention.css';

interface DiscardDialogProps {
  item: AttentionItem;
  /** The Settings lock, as Settings itself has it: where Settings is locked, Discard is too, with the same PIN. */
  lock: SettingsLock | undefined;
  /** The Settings prompt's own count of wrong PINs: one count for one PIN, so Discard buys no more guesses. */
  tries: PinTries;
  onTries: (tries: PinTries) => void;
  onConfirm: () => void;
  onCancel: () => void;
}

/**
 * Asks before a refused action is thrown away, saying what that does (a discarded check-in leaves the Roll
 * call), and asks for the Settings PIN where one is set: on a lobby tablet anyone can tap Discard. Modal,
 * so nothing else is tapped meanwhile; "No, keep it" comes first and has the focus when there is no PIN.
 */
export function DiscardDialog({ item, lock, tries, onTries, onConfirm, onCancel }: DiscardDialogProps) {
  const dialog = useRef<HTMLDialogElement>(null);
  const [entered, setEntered] = useState('');
  const [wrong, setWrong] = useState(false);
  const paused = tries.pausedUntil > 0;

  useEffect(() => {
    const element = dialog.current;
    if (element && !element.open) element.showModal();
    return () => element?.close();
  }, []);
  useEffect(() => {
    if (!paused) return undefined;
    const timer = setTimeout(() => onTries({ ...tries, pausedUntil: 0 }), Math.max(0, tries.pausedUntil - Date.now()));
    return () => clearTimeout(timer);
  }, [paused, tries, onTries]);

  const pin = lock?.kind === 'pin' ? lock.pin : undefined;
  const badPin = lock?.kind === 'invalid';
  const blocked = badPin || (pin !== undefined && paused);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (blocked) return;
    if (pin !== undefined) {
      const right = entered === pin;
      onTries(afterEntry(tries, right, Date.now()));
      if (!right) {
        setEntered('');
        setWrong(true);
        return;
      }
    }
    onConfirm();
  };

  let problem: string | undefined;
  if (badPin) problem = discardLockedByBadPin;
  else if (pin !== undefined && paused) problem = pausedText(tries.pausedUntil, Date.now());
  else if (wrong) problem = 'That PIN is not right.';
  return (
    <dialog
      ref={dialog}
      className="discard-dialog"
      aria-labelledby="discard-question"
      aria-describedby="discard-consequence"
      onCancel={(event) => {
        event.preventDefault();
        onCancel();
      }}
    >
      <form onSubmit={submit} noValidate autoComplete="off">
        <h2 id="discard-question" className="discard-question">
          {discardQuestion(item)}
        </h2>
        <p id="discard-consequence" className="discard-consequence">
          {discardConsequence(item)}
        </p>
        {problem ? (
          <p className="form-error" role="alert">
            {problem}
          </p>
        ) : null}
        {pin !== undefined ? (
          <div className="field">
            <p className="discard-pin-note">{discardNeedsPin}</p>
            <label htmlFor="discard-pin">Settings PIN</label>
            <input
              id="discard-pin"
              type="password"
              inputMode="numeric"
              maxLength={12}
              value={entered}
              disabled={paused}
              onChange={(event) => setEntered(event.target.value.trim())}
            />
          </div>
        ) : null}
        <div className="form-actions">
          <button type="button" className="button button-secondary" onClick={onCancel}>
            No, keep it
          </button>
          <button type="submit" className="button button-danger" disabled={blocked}>
            Yes, discard
          </button>
        </div>
      </form>
    </dialog>
  );
}
