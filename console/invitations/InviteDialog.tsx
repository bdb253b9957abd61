import { type FormEvent, useState } from 'react';
import type { InvitationAnswer } from '../../shared/src/client/invitations';
import { isLanguage, languages } from '../../shared/src/messages/languages';
import type { Site } from '../../shared/src/schemas/sites';
import { invitationsApi, newKey } from '../api';
import { Select } from '../components/Choice';
import { Dialog } from '../components/Dialog';
import { ErrorMessage } from '../components/ErrorMessage';
import { FormButtons } from '../components/FormButtons';
import { TextFields } from '../components/TextFields';
import { useWrite } from '../components/useWrite';
import { useWords } from '../language/ConsoleLanguage';
import { languageWords } from '../sites/LanguageDialog';
import { atSiteClock } from './expectedDay';

const FIELDS = ['siteId', 'person', 'purpose', 'expectedAt', 'language'] as const;

interface Values {
  siteId: string;
  firstName: string;
  lastName: string;
  email: string;
  company: string;
  purpose: string;
  time: string;
  /** The email's language; '' for the site's default (docs/invitations.md). */
  language: string;
}

const blank = (text: string) => (text.trim() === '' ? undefined : text.trim());

/**
 * Invite a visitor: who, to which site, when on the chosen day (on the site's clock). The pass is valid the
 * whole of that day at the site and is emailed to the visitor when an email is given (docs/invitations.md).
 */
export function InviteDialog({
  sites,
  day,
  onClose,
  onDone,
}: {
  sites: readonly Site[];
  day: string;
  onClose: () => void;
  onDone: (created: InvitationAnswer) => void;
}) {
  const words = useWords();
  const [values, setValues] = useState<Values>(() => ({
    siteId: String(sites[0]?.siteId ?? ''),
    firstName: '',
    lastName: '',
    email: '',
    company: '',
    purpose: '',
    time: '09:00',
    language: '',
  }));
  const [key] = useState(newKey);
  const write = useWrite(FIELDS);
  const set = (name: keyof Values, value: string) => setValues((before) => ({ ...before, [name]: value }));
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const site = sites.find((candidate) => String(candidate.siteId) === values.siteId);
    const expectedAt = site && atSiteClock(day, values.time, site);
    if (!site || !expectedAt) {
      write.setError(site ? words.t('invite.badTime') : words.t('invite.noSite'));
      return;
    }
    const done = await write.run(() =>
      invitationsApi.create(
        {
          siteId: site.siteId,
          person: {
            firstName: values.firstName.trim(),
            lastName: values.lastName.trim(),
            email: blank(values.email),
            company: blank(values.company),
          },
          purpose: blank(values.purpose),
          language: isLanguage(values.language) ? values.language : undefined,
          expectedAt: expectedAt.toISOString(),
        },
        key,
      ),
    );
    if (done) onDone(done);
  };
  const personError = write.fieldErrors.person;
  return (
    <Dialog title={words.t('expected.invite')} onClose={onClose}>
      <form onSubmit={(event) => void submit(event)} noValidate>
        <TextFields
          fields={[
            { name: 'firstName', label: words.t('invite.field.firstName') },
            { name: 'lastName', label: words.t('invite.field.lastName') },
            {
              name: 'email',
              label: words.t('invite.field.email'),
              type: 'email',
              placeholder: words.t('invite.field.emailHint'),
            },
            { name: 'company', label: words.t('invite.field.company') },
          ]}
          values={values}
          onChange={set}
          errors={write.fieldErrors}
        />
        {sites.length > 1 ? (
          <Select
            label={words.t('common.site')}
            value={values.siteId}
            onChange={(value) => set('siteId', value)}
            error={write.fieldErrors.siteId}
          >
            {sites.map((site) => (
              <option key={site.siteId} value={site.siteId}>
                {site.name}
              </option>
            ))}
          </Select>
        ) : null}
        <TextFields
          fields={[
            { name: 'time', label: words.t('invite.field.expectedAt'), type: 'time', errorOf: 'expectedAt' },
            { name: 'purpose', label: words.t('invite.field.purpose') },
          ]}
          values={values}
          onChange={set}
          errors={write.fieldErrors}
        />
        <Select
          label={words.t('invite.field.language')}
          value={values.language}
          onChange={(value) => set('language', value)}
          error={write.fieldErrors.language}
        >
          <option value="">{words.t('invite.language.siteDefault')}</option>
          {languages.map((language) => (
            <option key={language} value={language}>
              {languageWords(words, language)}
            </option>
          ))}
        </Select>
        <ErrorMessage text={personError ? `${personError} ${write.error ?? ''}`.trim() : write.error} />
        <FormButtons submit={words.t('invite.submit')} busy={write.busy} onCancel={onClose} />
      </form>
    </Dialog>
  );
}
