import { type FormEvent, useState } from 'react';
import type { SiteAnswer } from '../../shared/src/client/administration';
import { type Language, languageFacts, languages } from '../../shared/src/messages/languages';
import { adminApi, newKey } from '../api';
import { Select } from '../components/Choice';
import { Dialog } from '../components/Dialog';
import { ErrorMessage } from '../components/ErrorMessage';
import { FormButtons } from '../components/FormButtons';
import { useAction } from '../components/useAction';

/** How the Sites table says a site's language: its name in English, then in itself ("German · Deutsch"). */
export const languageWords = (language: Language) =>
  language === 'en' ? 'English' : `${ENGLISH_NAMES[language]} · ${languageFacts[language].ownName}`;

// The console is English: each language by its English name, with its own name beside it for whoever reads it.
const ENGLISH_NAMES: Readonly<Record<Language, string>> = {
  en: 'English',
  de: 'German',
  fr: 'French',
  es: 'Spanish',
  zh: 'Chinese (Simplified)',
  ar: 'Arabic',
};

/**
 * A site's default language (docs/languages.md): the one its kiosks greet visitors in, and go back to when a
 * visit ends; a visitor may choose another with the kiosk's Language button.
 */
export function LanguageDialog({
  site,
  onClose,
  onDone,
}: {
  site: SiteAnswer;
  onClose: () => void;
  onDone: () => void;
}) {
  const [language, setLanguage] = useState<Language>(site.defaultLanguage);
  const action = useAction();
  const [key] = useState(newKey);
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (await action.run(() => adminApi.updateSite(site.siteId, { defaultLanguage: language }, key))) onDone();
  };
  return (
    <Dialog title={`Visitors' language at ${site.name}`} onClose={onClose}>
      <form onSubmit={(event) => void submit(event)} noValidate>
        <Select
          label="Default language"
          value={language}
          onChange={(value) => setLanguage(languages.find((known) => known === value) ?? language)}
        >
          {languages.map((known) => (
            <option key={known} value={known}>
              {languageWords(known)}
            </option>
          ))}
        </Select>
        <p className="muted">
          The site&apos;s kiosks greet visitors in it and go back to it when a visit ends. A visitor may choose another
          with the kiosk&apos;s Language button.
        </p>
        <ErrorMessage text={action.error} />
        <FormButtons submit="Save" busy={action.busy} onCancel={onClose} />
      </form>
    </Dialog>
  );
}
