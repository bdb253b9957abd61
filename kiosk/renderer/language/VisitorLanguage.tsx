import { type ReactNode, createContext, useContext, useEffect } from 'react';
import { type KioskMessage, kioskCatalogs } from '../../../shared/src/messages/kiosk';
import { DEFAULT_LANGUAGE, type Language } from '../../../shared/src/messages/languages';
import { type Words, wordsOf } from '../../../shared/src/messages/translator';

export type KioskWords = Words<KioskMessage>;

interface VisitorLanguageValue {
  words: KioskWords;
  /** Switches the kiosk to `language` until the visit ends (docs/languages.md, The kiosk). */
  choose: (language: Language) => void;
}

// Outside a paired kiosk (starting, the setup screen) there is no visitor and no choice: English.
const english: VisitorLanguageValue = { words: wordsOf(kioskCatalogs, DEFAULT_LANGUAGE), choose: () => undefined };

const VisitorLanguageContext = createContext<VisitorLanguageValue>(english);

/**
 * The language the kiosk speaks to its visitor: the page's `lang` and `dir` follow it, so a screen reader
 * reads it in that language and the layout mirrors for Arabic. Back to English when it goes.
 */
export function VisitorLanguage({
  language,
  onChoose,
  children,
}: {
  language: Language;
  onChoose: (language: Language) => void;
  children: ReactNode;
}) {
  const words = wordsOf(kioskCatalogs, language);
  useEffect(() => {
    const root = document.documentElement;
    root.lang = words.tag;
    root.dir = words.dir;
    return () => {
      root.lang = english.words.tag;
      root.dir = english.words.dir;
    };
  }, [words]);
  return (
    <VisitorLanguageContext.Provider value={{ words, choose: onChoose }}>{children}</VisitorLanguageContext.Provider>
  );
}

/** The visitor's words, in the language the kiosk speaks now. */
export const useWords = (): KioskWords => useContext(VisitorLanguageContext).words;

/** The language chosen now, and how to choose another. */
export function useLanguageChoice(): { language: Language; choose: (language: Language) => void } {
  const { words, choose } = useContext(VisitorLanguageContext);
  return { language: words.language, choose };
}

/**
 * A screen for staff (Settings, Roll call, Needs attention, the gate): English, like the console, whatever
 * the visitor chose; marked so, so a screen reader does not read it as Arabic or German (docs/languages.md).
 * A shared part that speaks through useWords (the camera viewer on the pairing screen) speaks English here.
 */
export function StaffLanguage({ children }: { children: ReactNode }) {
  return (
    <VisitorLanguageContext.Provider value={english}>
      <div lang="en" dir="ltr" className="staff-language">
        {children}
      </div>
    </VisitorLanguageContext.Provider>
  );
}
