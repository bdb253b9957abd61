import { type FormEvent, useState } from 'react';
import type { HostAnswer } from '../../shared/src/client/hosts';
import { languageFacts } from '../../shared/src/messages/languages';
import { hostLanguages } from '../../shared/src/schemas/hosts';
import { hostsApi, newKey } from '../api';
import { CheckGroup, Checkbox, Select } from '../components/Choice';
import { Dialog } from '../components/Dialog';
import { ErrorMessage } from '../components/ErrorMessage';
import { FormButtons } from '../components/FormButtons';
import { TextFields } from '../components/TextFields';
import { useWrite } from '../components/useWrite';
import { useWords } from '../language/ConsoleLanguage';
import { useLive } from '../live/LiveData';
import { type SiteChoice, SitesChoice } from '../staff/SitesChoice';

const FIELDS = ['name', 'email', 'phone', 'siteIds', 'allSites', 'notifyBy', 'chatWebhookUrl', 'language'] as const;

interface Values {
  name: string;
  email: string;
  phone: string;
  sites: SiteChoice;
  byEmail: boolean;
  byChat: boolean;
  chatWebhookUrl: string;
  language: string;
}

const valuesOf = (host: HostAnswer | null): Values => ({
  name: host?.name ?? '',
  email: host?.email ?? '',
  phone: host?.phone ?? '',
  sites: { allSites: host?.allSites ?? false, siteIds: host?.siteIds ?? [] },
  byEmail: host ? host.notifyBy.includes('email') : true,
  byChat: host?.notifyBy.includes('chat') ?? false,
  chatWebhookUrl: host?.chatWebhookUrl ?? '',
  language: host?.language ?? 'en',
});

/** What the form says as a request: blank fields left out of a create, cleared (null) by an edit. */
function bodyOf(values: Values, editing: boolean) {
  const blank = (text: string) => (text.trim() === '' ? (editing ? null : undefined) : text.trim());
  return {
    name: values.name.trim(),
    email: blank(values.email),
    phone: blank(values.phone),
    ...(values.sites.allSites ? { allSites: true } : { siteIds: values.sites.siteIds }),
    notifyBy: [...(values.byEmail ? ['email' as const] : []), ...(values.byChat ? ['chat' as const] : [])],
    chatWebhookUrl: blank(values.chatWebhookUrl),
    language: hostLanguages.find((language) => language === values.language) ?? 'en',
  };
}

/** Add a host, or edit one (`host` given): who they are, their sites, and how they are told. */
export function HostDialog({
  host,
  onClose,
  onDone,
}: {
  host: HostAnswer | null;
  onClose: () => void;
  onDone: (saved: HostAnswer) => void;
}) {
  const words = useWords();
  const sites = useLive().sites ?? [];
  const [values, setValues] = useState<Values>(() => valuesOf(host));
  const [key] = useState(newKey);
  const write = useWrite(FIELDS);
  const set = <K extends keyof Values>(name: K, value: Values[K]) =>
    setValues((before) => ({ ...before, [name]: value }));
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!values.sites.allSites && values.sites.siteIds.length === 0) {
      write.setError(words.t('common.noSitesChosen'));
      return;
    }
    const body = bodyOf(values, host !== null);
    const done = host
      ? await write.run(() => hostsApi.updateHost(host.hostId, body, key))
      : await write.run(() =>
          hostsApi.createHost(
            {
              ...body,
              email: body.email ?? undefined,
              phone: body.phone ?? undefined,
              chatWebhookUrl: body.chatWebhookUrl ?? undefined,
            },
            key,
          ),
        );
    if (done) onDone(done);
  };
  return (
    <Dialog title={host ? words.t('hosts.editNamed', { name: host.name }) : words.t('hosts.add')} onClose={onClose}>
      <form onSubmit={(event) => void submit(event)} noValidate>
        <TextFields
          fields={[
            { name: 'name', label: words.t('hosts.field.name') },
            { name: 'email', label: words.t('hosts.field.email'), type: 'email' },
            { name: 'phone', label: words.t('hosts.field.phone'), type: 'tel' },
          ]}
          values={values}
          onChange={set}
          errors={write.fieldErrors}
        />
        <SitesChoice
          sites={sites}
          value={values.sites}
          onChange={(next) => set('sites', next)}
          error={write.fieldErrors.siteIds ?? write.fieldErrors.allSites}
        />
        <CheckGroup legend={words.t('hosts.field.tellThem')} error={write.fieldErrors.notifyBy}>
          <Checkbox
            label={words.t('hosts.field.byEmail')}
            checked={values.byEmail}
            onChange={(on) => set('byEmail', on)}
          />
          <Checkbox
            label={words.t('hosts.field.byChat')}
            checked={values.byChat}
            onChange={(on) => set('byChat', on)}
          />
        </CheckGroup>
        {values.byChat ? (
          <TextFields
            fields={[
              {
                name: 'chatWebhookUrl',
                label: words.t('hosts.field.chatWebhookUrl'),
                type: 'url',
                placeholder: words.t('hosts.field.chatWebhookUrlExample'),
              },
            ]}
            values={values}
            onChange={set}
            errors={write.fieldErrors}
          />
        ) : null}
        <Select
          label={words.t('hosts.field.language')}
          value={values.language}
          onChange={(value) => set('language', value)}
        >
          {hostLanguages.map((language) => (
            // Each language in its own name, as the kiosk's Language list says it: the host is told in it.
            <option key={language} value={language} lang={languageFacts[language].tag}>
              {languageFacts[language].ownName}
            </option>
          ))}
        </Select>
        <ErrorMessage text={write.error} />
        <FormButtons
          submit={host ? words.t('common.save') : words.t('common.add')}
          busy={write.busy}
          onCancel={onClose}
        />
      </form>
    </Dialog>
  );
}
