import { fieldMaxLength } from '../../../shared/src/domain';
import type { ConfigField } from '../../../shared/src/schemas/sites';
import { useWords } from '../language/VisitorLanguage';
import { fieldLabel } from '../language/visitorWords';
import type { KioskHost } from '../../src/sync/siteHosts';
import { HostPicker } from './HostPicker';

// Which on-screen keyboard a tablet shows for each type. Autofill stays off: a shared lobby tablet must not
// offer one visitor's details to the next.
const inputModes: Record<ConfigField['type'], 'text' | 'email' | 'tel'> = {
  text: 'text',
  email: 'email',
  phone: 'tel',
  select: 'text',
  checkbox: 'text',
  host: 'text',
};

interface FormFieldProps {
  field: ConfigField;
  value: string | boolean | undefined;
  error: string | undefined;
  onChange: (value: string | boolean) => void;
  onBlur: () => void;
  /** The site's hosts, for a `host` field (none yet: an empty list). */
  hosts?: readonly KioskHost[];
}

/**
 * One configured field: labelled by its `label` (a standard one in the visitor's language: fieldLabel), with
 * its error right beneath it when there is one.
 */
export function FormField({ field, value, error, onChange, onBlur, hosts = [] }: FormFieldProps) {
  const words = useWords();
  const label = fieldLabel(words, field);
  const id = `field-${field.name}`;
  const errorId = `${id}-error`;
  const hintId = `${id}-hint`;
  const describedBy =
    [field.required ? undefined : hintId, error ? errorId : undefined].filter(Boolean).join(' ') || undefined;
  const common = {
    id,
    name: field.name,
    'aria-invalid': error ? true : undefined,
    'aria-required': field.required || undefined,
    'aria-describedby': describedBy,
    onBlur,
  } as const;
  const hint = field.required ? null : (
    <span id={hintId} className="field-hint">
      {words.t('form.optional')}
    </span>
  );
  const message = error ? (
    <p id={errorId} className="field-error">
      {error}
    </p>
  ) : null;

  if (field.type === 'checkbox') {
    return (
      <div className={`field field-checkbox${error ? ' has-error' : ''}`}>
        <input
          type="checkbox"
          {...common}
          checked={value === true}
          onChange={(event) => onChange(event.target.checked)}
        />
        <label htmlFor={id}>{label}</label>
        {hint}
        {message}
      </div>
    );
  }
  return (
    <div className={`field${error ? ' has-error' : ''}`}>
      <div className="field-label-row">
        <label htmlFor={id}>{label}</label>
        {hint}
      </div>
      {field.type === 'host' ? (
        <HostPicker
          inputProps={common}
          hosts={hosts}
          value={typeof value === 'string' ? value : undefined}
          onChange={onChange}
        />
      ) : field.type === 'select' ? (
        <select
          {...common}
          value={typeof value === 'string' ? value : ''}
          onChange={(event) => onChange(event.target.value)}
        >
          <option value="">{words.t('form.choose')}</option>
          {(field.options ?? []).map((option) => (
            <option key={option} value={option}>
              {option}
            </option>
          ))}
        </select>
      ) : (
        <input
          {...common}
          type={field.type === 'email' ? 'email' : field.type === 'phone' ? 'tel' : 'text'}
          inputMode={inputModes[field.type]}
          autoComplete="off"
          autoCapitalize={field.name === 'firstName' || field.name === 'lastName' ? 'words' : 'off'}
          spellCheck={false}
          // What the server accepts, so a person cannot type (or paste) more than would be refused.
          maxLength={fieldMaxLength(field.name)}
          value={typeof value === 'string' ? value : ''}
          onChange={(event) => onChange(event.target.value)}
        />
      )}
      {message}
    </div>
  );
}
