import { type FormEvent, useEffect, useId, useState } from 'react';
import { type ConfigFieldAnswer, type PersonCheckinAnswer, isKnown } from '../../shared/src/client';
import { validateCheckinForm } from '../../shared/src/domain';
import { type FormValues, errorsByField, formInput, otherErrors } from '../../shared/src/domain/formValues';
import { type ConfigField, type Site, fieldTypes } from '../../shared/src/schemas/sites';
import { api, hostsApi, newKey } from '../api';
import type { KioskHostAnswer } from '../../shared/src/client/hosts';
import { Dialog } from '../components/Dialog';
import { ErrorMessage } from '../components/ErrorMessage';
import { FormButtons } from '../components/FormButtons';
import { useAction } from '../components/useAction';
import { useWords } from '../language/ConsoleLanguage';
import { failureWords } from '../words';

/** The fields this console can show; one of a type newer than it is left out (the server still checks). */
function knownFields(fields: readonly ConfigFieldAnswer[]): ConfigField[] {
  const known: ConfigField[] = [];
  for (const field of fields) {
    const type = field.type;
    if (isKnown(fieldTypes, type)) known.push({ ...field, type });
  }
  return known;
}

function FormField({
  field,
  value,
  error,
  onChange,
  hosts,
}: {
  field: ConfigField;
  value: string | boolean | undefined;
  error?: string;
  onChange: (value: string | boolean) => void;
  /** The site's hosts, for a host field. */
  hosts: readonly KioskHostAnswer[];
}) {
  const id = useId();
  const words = useWords();
  const described = error ? `${id}-error` : undefined;
  const label = field.required ? field.label : words.t('checkIn.optional', { label: field.label });
  if (field.type === 'checkbox') {
    return (
      <div className="field checkbox">
        <input
          id={id}
          type="checkbox"
          checked={value === true}
          onChange={(event) => onChange(event.target.checked)}
          aria-describedby={described}
        />
        <label htmlFor={id}>{label}</label>
        {error ? (
          <p className="field-error" id={described}>
            {error}
          </p>
        ) : null}
      </div>
    );
  }
  const text = typeof value === 'string' ? value : '';
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      {field.type === 'host' ? (
        <select id={id} value={text} onChange={(event) => onChange(event.target.value)} aria-describedby={described}>
          <option value="">{words.t('checkIn.choose')}</option>
          {hosts.map((host) => (
            <option key={host.hostId} value={String(host.hostId)}>
              {host.name}
            </option>
          ))}
        </select>
      ) : field.type === 'select' ? (
        <select id={id} value={text} onChange={(event) => onChange(event.target.value)} aria-describedby={described}>
          <option value="">{words.t('checkIn.choose')}</option>
          {(field.options ?? []).map((option) => (
            <option key={option}>{option}</option>
          ))}
        </select>
      ) : (
        <input
          id={id}
          type={field.type === 'phone' ? 'tel' : field.type}
          value={text}
          onChange={(event) => onChange(event.target.value)}
          aria-describedby={described}
          aria-invalid={error ? true : undefined}
        />
      )}
      {error ? (
        <p className="field-error" id={described}>
          {error}
        </p>
      ) : null}
    </div>
  );
}

/** Check in a visitor: the chosen site's form, built from its configuration, sent as a manual check-in. */
export function CheckInDialog({
  sites,
  initialSiteId,
  onClose,
  onDone,
}: {
  sites: readonly Site[];
  initialSiteId: number | null;
  onClose: () => void;
  onDone: (created: PersonCheckinAnswer) => void;
}) {
  const words = useWords();
  const siteSelect = useId();
  const [siteId, setSiteId] = useState(initialSiteId);
  const [fields, setFields] = useState<ConfigField[] | null>(null);
  const [loadError, setLoadError] = useState<string | null>(null);
  const [values, setValues] = useState<FormValues>({});
  const [hosts, setHosts] = useState<KioskHostAnswer[]>([]);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const action = useAction();
  const [key] = useState(newKey);

  useEffect(() => {
    if (siteId === null) return;
    let current = true;
    setFields(null);
    setLoadError(null);
    void api.getCheckinConfig(siteId).then((outcome) => {
      if (!current) return;
      if (outcome.kind === 'ok') setFields(knownFields(outcome.value.fields));
      else if (outcome.kind !== 'notModified') setLoadError(failureWords(words, outcome));
      if (outcome.kind === 'ok' && outcome.value.fields.some((field) => field.type === 'host')) {
        void hostsApi.kioskHosts(siteId).then((list) => {
          if (current && list.kind === 'ok') setHosts(list.value.data);
        });
      }
    });
    return () => {
      current = false;
    };
  }, [siteId, words]);

  const edit = (name: string, value: string | boolean) => {
    setValues({ ...values, [name]: value });
    setErrors(({ [name]: _gone, ...rest }) => rest);
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!fields || siteId === null) return;
    const input = formInput(fields, values);
    const found = validateCheckinForm(fields, input);
    setErrors(errorsByField(fields, found));
    const other = otherErrors(fields, found);
    if (found.length > 0) {
      action.setError(other[0]?.message ?? words.t('failure.checkMarked'));
      return;
    }
    // One key per dialog: pressing Check in again after a lost answer does not create a second visit.
    const created = await action.run(() => api.createPersonCheckin(siteId, input, key));
    if (created) onDone(created);
  };

  return (
    <Dialog title={words.t('onSite.checkIn')} onClose={onClose}>
      <form onSubmit={(event) => void submit(event)} noValidate>
        {sites.length > 1 ? (
          <div className="field">
            <label htmlFor={siteSelect}>{words.t('common.site')}</label>
            <select id={siteSelect} value={siteId ?? ''} onChange={(event) => setSiteId(Number(event.target.value))}>
              {sites.map((site) => (
                <option key={site.siteId} value={site.siteId}>
                  {site.name}
                </option>
              ))}
            </select>
          </div>
        ) : null}
        <ErrorMessage text={loadError} />
        {fields === null && !loadError ? <p aria-busy="true">{words.t('siteForm.loading')}</p> : null}
        {(fields ?? []).map((field) => (
          <FormField
            key={field.name}
            field={field}
            value={values[field.name]}
            error={errors[field.name]}
            onChange={(value) => edit(field.name, value)}
            hosts={hosts}
          />
        ))}
        <ErrorMessage text={action.error} />
        <FormButtons submit={words.t('checkIn.submit')} busy={!fields || action.busy} onCancel={onClose} />
      </form>
    </Dialog>
  );
}
