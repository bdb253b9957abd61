import type { ReactNode } from 'react';
import { useWords } from '../language/ConsoleLanguage';

/** A dialog form's Cancel and its submit button, the submit held while the request is out. */
export function FormButtons({
  submit,
  busy,
  onCancel,
  tone = 'primary',
}: {
  submit: ReactNode;
  busy: boolean;
  onCancel: () => void;
  tone?: 'primary' | 'danger';
}) {
  const words = useWords();
  return (
    <div className="buttons">
      <button type="button" onClick={onCancel}>
        {words.t('common.cancel')}
      </button>
      <button type="submit" className={tone} disabled={busy}>
        {submit}
      </button>
    </div>
  );
}

/** The one button of a dialog whose work is done: Done, which closes it. */
export function DoneButton({ onClose }: { onClose: () => void }) {
  const words = useWords();
  return (
    <div className="buttons">
      <button type="button" className="primary" onClick={onClose}>
        {words.t('common.done')}
      </button>
    </div>
  );
}
