import { type FormEvent, useState } from 'react';
import type { SiteAnswer } from '../../shared/src/client/administration';
import { type Language, languageFacts, languages } from '../../shared/src/messages/languages';
import { adminApi, newKey } from '../api';
import { Select } from '../components/Choice';
import { Dialog } from '../components/Dialog';
import { ErrorMessage } from '../components/ErrorMessage';
import { FormButtons } from '../components/FormButtons';
import { useAction } from '../components/useAction';
import type { ConsoleWords } from '../language/consoleWords';
import { useWords } from '../language/ConsoleLanguage';

/**
 * How the Sites table says a site's language: its name in the console's words, then in itself ("German ·
 * Deutsch"), for whoever reads it; the console's own language alone.
 */
export const languageWords = (words: ConsoleWords, language: Language) =>
  language === words.language
    ? words.t(`language.${language}`)
    : words.t('sites.language.named', { name: words.t(`language.${language}`), own: languageFacts[language].ownName });

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
  const words = useWords();
  const [language, setLanguage] = useState<Language>(site.defaultLanguage);
  const action = useAction();
  const [key] = useState(newKey);
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (await action.run(() => adminApi.updateSite(site.siteId, { defaultLanguage: language }, key))) onDone();
  };
  return (
    <Dialog title={words.t('sites.language.title', { name: site.name })} onClose={onClose}>
      <form onSubmit={(event) => void submit(event)} noValidate>
        <Select
          label={words.t('sites.language.default')}
          value={language}
          onChange={(value) => setLanguage(languages.find((known) => known === value) ?? language)}
        >
          {languages.map((known) => (
            <option key={known} value={known}>
              {languageWords(words, known)}
            </option>
          ))}
        </Select>
        <p className="muted">{words.t('sites.language.hint')}</p>
        <ErrorMessage text={action.error} />
        <FormButtons submit={words.t('common.save')} busy={action.busy} onCancel={onClose} />
      </form>
    </Dialog>
  );
}
