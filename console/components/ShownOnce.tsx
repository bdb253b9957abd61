import { useId, useState } from 'react';

/** A secret or one-time link, shown this once with a copy button: the server keeps only its hash. */
export function ShownOnce({ label, value }: { label: string; value: string }) {
  const id = useId();
  const [copied, setCopied] = useState(false);
  const copy = async () => {
    await navigator.clipboard?.writeText(value).then(
      () => setCopied(true),
      () => setCopied(false),
    );
  };
  return (
    <div className="shown-once">
      <label htmlFor={id}>{label}</label>
      <div className="shown-once-value">
        <input id={id} readOnly value={value} onFocus={(event) => event.target.select()} />
        <button type="button" onClick={() => void copy()}>
          {copied ? 'Copied' : 'Copy'}
        </button>
      </div>
      <p className="warning" role="status">You will not see this again.</p>
    </div>
  );
}
