import { useState } from 'react';
import type { HttpOutcome } from '../../shared/src/client/http';
import { newKey } from '../api';
import { useWords } from '../language/ConsoleLanguage';
import { Dialog } from './Dialog';
import { ErrorMessage } from './ErrorMessage';
import { useAction } from './useAction';

interface ConfirmProps {
  title: string;
  message: string;
  /** The confirming button's name (Delete, Disable, Revoke…). */
  confirm: string;
  onClose: () => void;
  /** The write, with one Idempotency-Key per dialog (pressing again after a failure repeats the same write). */
  action: (key: string) => Promise<HttpOutcome<unknown>>;
  onDone: () => void;
}

/** A destructive write asked twice: the page's button opens this, its own button does it. */
export function ConfirmDialog({ title, message, confirm, onClose, action, onDone }: ConfirmProps) {
  const words = useWords();
  const write = useAction();
  const [key] = useState(newKey);
  const go = async () => {
    // A 204 carries no value: map a success to `true` so it is told apart from a failure.
    const done = await write.run(async () => {
      const outcome = await action(key);
      return outcome.kind === 'ok' ? { ...outcome, value: true } : outcome;
    });
    if (done) onDone();
  };
  return (
    <Dialog title={title} onClose={onClose}>
      <p>{message}</p>
      <ErrorMessage text={write.error} />
      <div className="buttons">
        <button type="button" onClick={onClose}>
          {words.t('common.cancel')}
        </button>
        <button type="button" className="danger" disabled={write.busy} onClick={() => void go()}>
          {confirm}
        </button>
      </div>
    </Dialog>
  );
}
