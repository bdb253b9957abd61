import { type FormEvent, useId } from 'react';
import type { ConfigField } from '../shared/src/schemas/sites';
import type { VisitSite } from '../shared/src/schemas/visit';
import type { FormValues } from '../shared/src/domain/formValues';
import { fieldLabel, words } from './words';

interface Props {
  site: VisitSite;
  values: FormValues;
  errors: Record<string, string>;
  /** Above the form: what went wrong as a whole, or the connection. */
  message: string | undefined;
  busy: boolean;
  onChange: (name: string, value: string | boolean) => void;
  onSubmit: () => void;
}

const inputType = (field: ConfigField) => (field.type === 'email' ? 'email' : field.type === 'phone' ? 'tel' : 'text');

const autoComplete: Record<string, string> = {
  firstName: 'given-name',
  lastName: 'family-name',
  email: 'email',
  phone: 'tel',
  company: 'organization',
};

/** One input per field of the site's form, labelled with the field's label; what was typed is kept on errors. */
function FieldInput({ field, props }: { field: ConfigField; props: Props }) {
  const id = useId();
  const error = props.errors[field.name];
  const errorId = `${id}-error`;
  const value = props.values[field.name];
  const described = error ? { 'aria-describedby': errorId, 'aria-invalid': true } : {};
  const label = (
    <label htmlFor={id}>
      {fieldLabel(field)}
      {field.required && field.type !== 'checkbox' ? <span className="required"> ({words.required})</span> : null}
    </label>
  );
  let control;
  if (field.type === 'checkbox') {
    control = (
      <div className="check">
        <input
          id={id}
          type="checkbox"
          checked={value === true}
          onChange={(event) => props.onChange(field.name, event.target.checked)}
          {...described}
        />
        {label}
      </div>
    );
  } else if (field.type === 'select' || field.type === 'host') {
    const options =
      field.type === 'host'
        ? props.site.hosts.map((host) => ({ value: String(host.hostId), text: host.name }))
        : (field.options ?? []).map((option) => ({ value: option, text: option }));
    control = (
      <>
        {label}
        <select
          id={id}
          value={typeof value === 'string' ? value : ''}
          onChange={(event) => props.onChange(field.name, event.target.value)}
          required={field.required}
          {...described}
        >
          <option value="">{words.chooseHost}</option>
          {options.map((option) => (
            <option key={option.value} value={option.value}>
              {option.text}
            </option>
          ))}
        </select>
      </>
    );
  } else {
    control = (
      <>
        {label}
        <input
          id={id}
          type={inputType(field)}
          value={typeof value === 'string' ? value : ''}
          autoComplete={autoComplete[field.name] ?? 'off'}
          onChange={(event) => props.onChange(field.name, event.target.value)}
          required={field.required}
          {...described}
        />
      </>
    );
  }
  return (
    <div className="field">
      {control}
      {error ? (
        <p id={errorId} className="error">
          {error}
        </p>
      ) : null}
    </div>
  );
}

/** The site's check-in form and its Check in button. */
export function CheckinForm(props: Props) {
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!props.busy) props.onSubmit();
  };
  return (
    <form onSubmit={submit} noValidate>
      <p>{words.formIntro}</p>
      {props.message ? (
        <p className="notice" role="alert">
          {props.message}
        </p>
      ) : null}
      {props.site.fields.map((field) => (
        <FieldInput key={field.name} field={field} props={props} />
      ))}
      <button type="submit" className="primary" aria-disabled={props.busy}>
        {props.busy ? words.checkingIn : words.checkIn}
      </button>
    </form>
  );
}
