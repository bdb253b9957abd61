import { type FormEvent, useEffect, useRef, useState } from 'react';
import { validateCheckinForm } from '../../../shared/src/domain';
import { type ConfigField, defaultCheckinConfig } from '../../../shared/src/schemas/sites';
import type { Kiosk } from '../../src/kiosk';
import type { PersonVisit } from '../../src/data/types';
import { FormField } from '../components/FormField';
import { type FormValues, errorsByField, formInput, otherErrors } from '../formModel';
import { plainReason } from '../words';

interface CheckinFormProps {
  kiosk: Kiosk;
  onCheckedIn(visit: PersonVisit): void;
  onCancel(): void;
}

/**
 * The check-in form, generated from the site's configuration (the cached copy when offline, the server's
 * default fields if none was ever fetched). It is checked with the same rules the server applies, and the
 * errors are shown under each field before anything is queued.
 */
export function CheckinForm({ kiosk, onCheckedIn, onCancel }: CheckinFormProps) {
  const [fields, setFields] = useState<ConfigField[]>();
  const [values, setValues] = useState<FormValues>({});
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [formError, setFormError] = useState<string>();
  const [saving, setSaving] = useState(false);
  const form = useRef<HTMLFormElement>(null);

  useEffect(() => {
    let current = true;
    const fallback = defaultCheckinConfig.fields;
    kiosk.siteConfig().then(
      (result) => current && setFields(result?.config.fields ?? fallback),
      () => current && setFields(fallback),
    );
    return () => {
      current = false;
    };
  }, [kiosk]);

  useEffect(() => {
    form.current?.querySelector<HTMLElement>('input, select')?.focus();
  }, [fields]);

  if (!fields) return <p className="loading">Loading the form…</p>;

  const check = (next: FormValues) => errorsByField(fields, validateCheckinForm(fields, formInput(fields, next)));
  const focusFirstError = (shown: Record<string, string>) => {
    const first = fields.find((field) => shown[field.name] !== undefined);
    if (first) form.current?.querySelector<HTMLElement>(`#field-${first.name}`)?.focus();
  };

  const change = (name: string, value: string | boolean) => {
    const next = { ...values, [name]: value };
    setValues(next);
    // A field already marked wrong is re-checked as the person types, so the message goes once it is right.
    if (errors[name] !== undefined) {
      const { [name]: _fixed, ...rest } = errors;
      const now = check(next)[name];
      setErrors(now === undefined ? rest : { ...rest, [name]: now });
    }
  };

  // On leaving a field that has something in it, say at once if it is malformed; "required" waits for submit.
  const blur = (name: string) => {
    const value = values[name];
    if (value === undefined || value === '' || value === false) return;
    const message = check(values)[name];
    if (message !== undefined) setErrors({ ...errors, [name]: message });
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (saving) return;
    const input = formInput(fields, values);
    const problems = validateCheckinForm(fields, input);
    if (problems.length > 0) {
      const shown = errorsByField(fields, problems);
      setErrors(shown);
      setFormError(problems.length === 1 ? 'Please correct the field marked below.' : `Please correct the ${problems.length} fields marked below.`);
      focusFirstError(shown);
      return;
    }
    setSaving(true);
    const result = await kiosk.checkIn(input);
    setSaving(false);
    if (result.ok) {
      onCheckedIn(result.value);
      return;
    }
    const shown = errorsByField(fields, result.errors ?? []);
    setErrors(shown);
    const extra = otherErrors(fields, result.errors ?? []).map((error) => error.message);
    setFormError([plainReason(result.code, result.message), ...extra].join(' '));
    focusFirstError(shown);
  };

  return (
    <form ref={form} className="checkin-form" noValidate autoComplete="off" onSubmit={submit} aria-labelledby="checkin-title">
      <h1 id="checkin-title" className="screen-title">Check in</h1>
      {formError ? <p className="form-error" role="alert">{formError}</p> : null}
      <div className="fields">
        {fields.map((field) => (
          <FormField
            key={field.name}
            field={field}
            value={values[field.name]}
            error={errors[field.name]}
            onChange={(value) => change(field.name, value)}
            onBlur={() => blur(field.name)}
          />
        ))}
      </div>
      <div className="form-actions form-actions-sticky">
        <button type="button" className="button button-secondary" onClick={onCancel}>Back</button>
        <button type="submit" className="button button-primary button-wide" disabled={saving}>Check in</button>
      </div>
    </form>
  );
}
