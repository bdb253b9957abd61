import { useId, useState } from 'react';

/**
 * A secret or one-time link, shown this once with a copy button: the server keeps only its hash. Where the
 * browser refuses the clipboard, it says to copy by hand.
 */
export function ShownOnce({
  label,
  value,
  warning = 'You will not see this again.',
}: {
  label: string;
  value: string;
  warning?: string;
}) {
  const id = useId();
  const [copied, setCopied] = useState<string | null>(null);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(value);
      setCopied('Copied.');
    } catch {
      setCopied('Copying is not allowed here: select it and copy it by hand.');
    }
  };
  return (
    <div className="shown-once">
      <label htmlFor={id}>{label}</label>
      <div className="shown-once-value">
        <input id={id} readOnly value={value} onFocus={(event) => event.target.select()} />
        <button type="button" onClick={() => void copy()}>
          {copied === 'Copied.' ? 'Copied' : 'Copy'}
        </button>
      </div>
      <p className="warning" role="status">
        {warning}
      </p>
      {copied && copied !== 'Copied.' ? <p className="hint">{copied}</p> : null}
    </div>
  );
}
