import { type ReactNode, useId, useState } from 'react';
import { Dialog } from './Dialog';
import { DoneButton } from './FormButtons';
import { useWords } from '../language/ConsoleLanguage';

/**
 * A secret or one-time link, shown this once with a copy button: the server keeps only its hash. Where the
 * browser refuses the clipboard, it says to copy by hand.
 */
export function ShownOnce({
  label,
  value,
  warning,
}: {
  label: string;
  value: string;
  /** What the user is told of it; by default that they will not see it again. */
  warning?: string;
}) {
  const words = useWords();
  const id = useId();
  // Copied, or why it could not be.
  const [copied, setCopied] = useState<'copied' | 'refused' | null>(null);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(value);
      setCopied('copied');
    } catch {
      setCopied('refused');
    }
  };
  return (
    <div className="shown-once">
      <label htmlFor={id}>{label}</label>
      <div className="shown-once-value">
        <input id={id} readOnly value={value} onFocus={(event) => event.target.select()} />
        <button type="button" onClick={() => void copy()}>
          {copied === 'copied' ? words.t('shownOnce.copied') : words.t('shownOnce.copy')}
        </button>
      </div>
      <p className="warning" role="status">
        {warning ?? words.t('shownOnce.warning')}
      </p>
      {copied === 'refused' ? <p className="hint">{words.t('shownOnce.refused')}</p> : null}
    </div>
  );
}

/** What was just made, in a dialog: what it is for (`children`), the secret or link shown once, and Done. */
export function ShownOnceDialog({
  title,
  label,
  value,
  onClose,
  children,
}: {
  title: string;
  label: string;
  value: string;
  onClose: () => void;
  children: ReactNode;
}) {
  return (
    <Dialog title={title} onClose={onClose}>
      {children}
      <ShownOnce label={label} value={value} />
      <DoneButton onClose={onClose} />
    </Dialog>
  );
}
