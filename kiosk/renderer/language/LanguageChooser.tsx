import { type KeyboardEvent, useRef, useState } from 'react';
import { languageFacts, languages } from '../../../shared/src/messages/languages';
import { Icon } from '../components/Icon';
import { useLanguageChoice, useWords } from './VisitorLanguage';

/**
 * The visitor home's **Language** button and the languages it lists, each in its own name (and marked as
 * that language, so a screen reader says "Deutsch" in German). The button says "Language" in English too
 * whatever the kiosk speaks: a visitor who cannot read the current language still finds the way out.
 */
export function LanguageChooser() {
  const words = useWords();
  const { language, choose } = useLanguageChoice();
  const [open, setOpen] = useState(false);
  const button = useRef<HTMLButtonElement>(null);
  const close = () => {
    setOpen(false);
    button.current?.focus();
  };
  const onKeyDown = (event: KeyboardEvent) => {
    if (event.key === 'Escape' && open) close();
  };
  return (
    <div className="language">
      <button
        ref={button}
        type="button"
        className="language-button"
        onKeyDown={onKeyDown}
        aria-expanded={open}
        aria-controls="language-list"
        onClick={() => setOpen(!open)}
      >
        <Icon name="globe" size={26} />
        <span>{words.t('language.button')}</span>
        {language === 'en' ? null : (
          <span lang="en" dir="ltr" className="language-button-english">
            Language
          </span>
        )}
      </button>
      {open ? (
        <ul id="language-list" className="language-list" aria-label={words.t('language.list')}>
          {languages.map((code) => (
            <li key={code}>
              <button
                type="button"
                className="language-option"
                lang={languageFacts[code].tag}
                dir={languageFacts[code].dir}
                aria-current={code === language ? 'true' : undefined}
                onKeyDown={onKeyDown}
                onClick={() => {
                  choose(code);
                  close();
                }}
              >
                {languageFacts[code].ownName}
              </button>
            </li>
          ))}
        </ul>
      ) : null}
    </div>
  );
}
