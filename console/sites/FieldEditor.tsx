import { useId } from 'react';
import { fieldTypes } from '../../shared/src/schemas/sites';
import type { ConsoleMessage } from '../../shared/src/messages/console';
import { FieldError } from '../components/Field';
import { useWords } from '../language/ConsoleLanguage';
import { type DraftField, isStandard, lockedNames } from './formDraft';

const typeWords: Record<string, ConsoleMessage> = {
  text: 'siteForm.type.text',
  email: 'siteForm.type.email',
  phone: 'siteForm.type.phone',
  select: 'siteForm.type.select',
  checkbox: 'siteForm.type.checkbox',
  host: 'siteForm.type.host',
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
  const words = useWords();
  const locked = lockedNames.includes(field.name);
  const types: string[] = (fieldTypes as readonly string[]).includes(field.type)
    ? [...fieldTypes]
    : [...fieldTypes, field.type];
  const set = (change: Partial<DraftField>) => onChange({ ...field, ...change });
  // A type a newer server added shows as its code.
  const typeName = (type: string) => {
    const key = typeWords[type];
    return key ? words.t(key) : type;
  };
  return (
    <fieldset
      className={`field-editor${error ? ' has-error' : ''}`}
      aria-describedby={error ? `${id}-error` : undefined}
    >
      <legend>
        {field.label.trim() || field.name}{' '}
        <span className="muted">{words.t('siteForm.fieldName', { name: field.name })}</span>
      </legend>
      <div className="field-editor-grid">
        <div className="field">
          <label htmlFor={`${id}-label`}>{words.t('siteForm.label')}</label>
          <input
            id={`${id}-label`}
            value={field.label}
            maxLength={120}
            // eslint-disable-next-line jsx-a11y/no-autofocus -- a field just added takes the focus, to be named at once
            autoFocus={focus}
            onChange={(event) => set({ label: event.target.value })}
          />
        </div>
        <div className="field">
          <label htmlFor={`${id}-type`}>{words.t('siteForm.type')}</label>
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
                {typeName(type)}
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
          <label htmlFor={`${id}-required`}>{words.t('siteForm.required')}</label>
        </div>
      </div>
      {field.type === 'select' ? (
        <div className="field">
          <label htmlFor={`${id}-options`}>{words.t('siteForm.options')}</label>
          <textarea
            id={`${id}-options`}
            rows={4}
            value={field.optionsText}
            aria-describedby={`${id}-options-hint`}
            onChange={(event) => set({ optionsText: event.target.value })}
          />
          <p className="hint" id={`${id}-options-hint`}>
            {words.t('siteForm.options.hint')}
          </p>
        </div>
      ) : null}
      {locked ? <p className="hint">{words.t('siteForm.locked')}</p> : null}
      <FieldError id={id} error={error} />
      <div className="buttons start">
        <button type="button" disabled={first} onClick={() => onMove(-1)}>
          {words.t('siteForm.moveUp')}
        </button>
        <button type="button" disabled={last} onClick={() => onMove(1)}>
          {words.t('siteForm.moveDown')}
        </button>
        {locked ? null : (
          <button type="button" onClick={onRemove}>
            {words.t('siteForm.remove')}
          </button>
        )}
      </div>
    </fieldset>
  );
}
