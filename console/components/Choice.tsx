import { type ReactNode, useId } from 'react';
import { FieldError, errorLink } from './Field';

/** A labelled checkbox. */
export function Checkbox({
  label,
  checked,
  onChange,
  disabled,
}: {
  label: string;
  checked: boolean;
  onChange: (checked: boolean) => void;
  disabled?: boolean;
}) {
  const id = useId();
  return (
    <div className="field checkbox">
      <input
        id={id}
        type="checkbox"
        checked={checked}
        disabled={disabled}
        onChange={(event) => onChange(event.target.checked)}
      />
      <label htmlFor={id}>{label}</label>
    </div>
  );
}

/** A labelled select, its error (if any) read out with it. */
export function Select({
  label,
  value,
  onChange,
  error,
  children,
}: {
  label: string;
  value: string;
  onChange: (value: string) => void;
  error?: string;
  children: ReactNode;
}) {
  const id = useId();
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <select id={id} value={value} onChange={(event) => onChange(event.target.value)} {...errorLink(id, error)}>
        {children}
      </select>
      <FieldError id={id} error={error} />
    </div>
  );
}

/** A group of checkboxes under one name (a fieldset), its error read out with it. */
export function CheckGroup({ legend, error, children }: { legend: string; error?: string; children: ReactNode }) {
  const id = useId();
  return (
    <fieldset className="check-group" aria-describedby={errorLink(id, error)['aria-describedby']}>
      <legend>{legend}</legend>
      {children}
      <FieldError id={id} error={error} />
    </fieldset>
  );
}
