import { type FormEvent, useId, useState } from 'react';
import type { SiteAnswer } from '../../shared/src/client/administration';
import { adminApi, newKey } from '../api';
import { Dialog } from '../components/Dialog';
import { ErrorMessage } from '../components/ErrorMessage';
import { Field } from '../components/Field';
import { FormButtons } from '../components/FormButtons';
import { useAction } from '../components/useAction';
import { useWords } from '../language/ConsoleLanguage';

const zones = (current: string) => {
  const known = ['UTC', ...Intl.supportedValuesOf('timeZone')];
  return known.includes(current) ? known : [current, ...known];
};

/** The IANA time zones, the site's own first if the browser does not list it. */
function TimezoneSelect({ value, onChange }: { value: string; onChange: (zone: string) => void }) {
  const id = useId();
  const words = useWords();
  return (
    <div className="field">
      <label htmlFor={id}>{words.t('sites.timezone')}</label>
      <select id={id} value={value} onChange={(event) => onChange(event.target.value)}>
        {zones(value).map((zone) => (
          <option key={zone} value={zone}>
            {zone.replaceAll('_', ' ')}
          </option>
        ))}
      </select>
    </div>
  );
}

const browserZone = () => Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';

/** Add a site: Name and Time zone (the browser's by default); it starts with the default check-in form. */
export function AddSiteDialog({ onClose, onDone }: { onClose: () => void; onDone: () => void }) {
  const words = useWords();
  const [name, setName] = useState('');
  const [timezone, setTimezone] = useState(browserZone);
  const [nameError, setNameError] = useState<string | undefined>();
  const action = useAction();
  const [key] = useState(newKey);
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (name.trim() === '') return setNameError(words.t('sites.noName'));
    setNameError(undefined);
    if (await action.run(() => adminApi.createSite({ name: name.trim(), timezone }, key))) onDone();
  };
  return (
    <Dialog title={words.t('sites.add')} onClose={onClose}>
      <form onSubmit={(event) => void submit(event)} noValidate>
        <Field label={words.t('sites.field.name')} value={name} onChange={setName} error={nameError} maxLength={200} />
        <TimezoneSelect value={timezone} onChange={setTimezone} />
        <ErrorMessage text={action.error} />
        <FormButtons submit={words.t('sites.add.submit')} busy={action.busy} onCancel={onClose} />
      </form>
    </Dialog>
  );
}

/** Rename a site, or change its time zone: one PATCH of what changed. */
export function EditSiteDialog({
  site,
  what,
  onClose,
  onDone,
}: {
  site: SiteAnswer;
  what: 'name' | 'timezone';
  onClose: () => void;
  onDone: () => void;
}) {
  const words = useWords();
  const [name, setName] = useState(site.name);
  const [timezone, setTimezone] = useState(site.timezone);
  const [nameError, setNameError] = useState<string | undefined>();
  const action = useAction();
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (what === 'name' && name.trim() === '') return setNameError(words.t('sites.noName'));
    setNameError(undefined);
    const body = what === 'name' ? { name: name.trim() } : { timezone };
    if (await action.run(() => adminApi.updateSite(site.siteId, body, newKey()))) onDone();
  };
  return (
    <Dialog
      title={
        what === 'name'
          ? words.t('sites.renameNamed', { name: site.name })
          : words.t('sites.timezoneNamed', { name: site.name })
      }
      onClose={onClose}
    >
      <form onSubmit={(event) => void submit(event)} noValidate>
        {what === 'name' ? (
          <Field
            label={words.t('sites.field.name')}
            value={name}
            onChange={setName}
            error={nameError}
            maxLength={200}
          />
        ) : (
          <TimezoneSelect value={timezone} onChange={setTimezone} />
        )}
        <ErrorMessage text={action.error} />
        <FormButtons submit={words.t('common.save')} busy={action.busy} onCancel={onClose} />
      </form>
    </Dialog>
  );
}
