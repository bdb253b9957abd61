import { type ReactNode, useId } from 'react';

/** A labelled checkbox. */
export function Checkbox({ label, checked, onChange, disabled }: { label: string; checked: boolean; onChange(checked: boolean): void; disabled?: boolean }) {
  const id = useId();
  return (
    <div className="field checkbox">
      <input id={id} type="checkbox" checked={checked} disabled={disabled} onChange={(event) => onChange(event.target.checked)} />
      <label htmlFor={id}>{label}</label>
    </div>
  );
}

/** A labelled select, its error (if any) read out with it. */
export function Select({ label, value, onChange, error, children }: { label: string; value: string; onChange(value: string): void; error?: string; children: ReactNode }) {
  const id = useId();
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <select
        id={id}
        value={value}
        onChange={(event) => onChange(event.target.value)}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? `${id}-error` : undefined}
      >
        {children}
      </select>
      {error ? (
        <p className="field-error" id={`${id}-error`}>
          {error}
        </p>
      ) : null}
    </div>
  );
}

/** A group of checkboxes under one name (a fieldset), its error read out with it. */
export function CheckGroup({ legend, error, children }: { legend: string; error?: string; children: ReactNode }) {
  const id = useId();
  return (
    <fieldset className="check-group" aria-describedby={error ? `${id}-error` : undefined}>
      <legend>{legend}</legend>
      {children}
      {error ? (
        <p className="field-error" id={`${id}-error`}>
          {error}
        </p>
      ) : null}
    </fieldset>
  );
}
