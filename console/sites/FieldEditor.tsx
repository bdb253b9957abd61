import { useId } from 'react';
import { fieldTypes } from '../../shared/src/schemas/sites';
import { FieldError } from '../components/Field';
import { type DraftField, isStandard, lockedNames } from './formDraft';

const typeWords: Record<string, string> = {
  text: 'Text',
  email: 'Email',
  phone: 'Phone',
  select: 'Choice (select)',
  checkbox: 'Checkbox',
  host: 'Host (from the host list)',
};

interface FieldEditorProps {
  field: DraftField;
  error: string | undefined;
  first: boolean;
  last: boolean;
  /** Just added: the Label input takes the focus. */
  focus: boolean;
  onChange: (field: DraftField) => void;
  onMove: (by: -1 | 1) => void;
  onRemove: () => void;
}

/** One field of the form: Label, Type, Required, Options (a select's), Move up / Move down / Remove. */
export function FieldEditor({ field, error, first, last, focus, onChange, onMove, onRemove }: FieldEditorProps) {
  const id = useId();
  const locked = lockedNames.includes(field.name);
  const types: string[] = (fieldTypes as readonly string[]).includes(field.type)
    ? [...fieldTypes]
    : [...fieldTypes, field.type];
  const set = (change: Partial<DraftField>) => onChange({ ...field, ...change });
  return (
    <fieldset
      className={`field-editor${error ? ' has-error' : ''}`}
      aria-describedby={error ? `${id}-error` : undefined}
    >
      <legend>
        {field.label.trim() || field.name} <span className="muted">({field.name})</span>
      </legend>
      <div className="field-editor-grid">
        <div className="field">
          <label htmlFor={`${id}-label`}>Label</label>
          <input
            id={`${id}-label`}
            value={field.label}
            maxLength={120}
            autoFocus={focus}
            onChange={(event) => set({ label: event.target.value })}
          />
        </div>
        <div className="field">
          <label htmlFor={`${id}-type`}>Type</label>
          <select
            id={`${id}-type`}
            value={field.type}
            disabled={locked}
            onChange={(event) => set({ type: event.target.value })}
          >
            {types.map((type) => (
              // A standard field holds text: the server refuses it as a checkbox. The host list is hostName's alone.
              <option
                key={type}
                value={type}
                disabled={
                  (type === 'checkbox' && isStandard(field.name)) || (type === 'host' && field.name !== 'hostName')
                }
              >
                {typeWords[type] ?? type}
              </option>
            ))}
          </select>
        </div>
        <div className="field checkbox">
          <input
            id={`${id}-required`}
            type="checkbox"
            checked={field.required}
            disabled={locked}
            onChange={(event) => set({ required: event.target.checked })}
          />
          <label htmlFor={`${id}-required`}>Required</label>
        </div>
      </div>
      {field.type === 'select' ? (
        <div className="field">
          <label htmlFor={`${id}-options`}>Options</label>
          <textarea
            id={`${id}-options`}
            rows={4}
            value={field.optionsText}
            aria-describedby={`${id}-options-hint`}
            onChange={(event) => set({ optionsText: event.target.value })}
          />
          <p className="hint" id={`${id}-options-hint`}>
            One option per line.
          </p>
        </div>
      ) : null}
      {locked ? (
        <p className="hint">Every visitor gives a first and last name: this field stays, as required text.</p>
      ) : null}
      <FieldError id={id} error={error} />
      <div className="buttons start">
        <button type="button" disabled={first} onClick={() => onMove(-1)}>
          Move up
        </button>
        <button type="button" disabled={last} onClick={() => onMove(1)}>
          Move down
        </button>
        {locked ? null : (
          <button type="button" onClick={onRemove}>
            Remove
          </button>
        )}
      </div>
    </fieldset>
  );
}
