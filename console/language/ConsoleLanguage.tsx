import { type ReactNode, createContext, useContext, useEffect } from 'react';
import { consoleCatalogs } from '../../shared/src/messages/console';
import { DEFAULT_LANGUAGE } from '../../shared/src/messages/languages';
import { wordsOf } from '../../shared/src/messages/translator';
import { type ConsoleWords, consoleLanguage } from './consoleWords';

const WordsContext = createContext<ConsoleWords>(wordsOf(consoleCatalogs, DEFAULT_LANGUAGE));

/** The console's words for every screen under it, in the browser's language where the console has it. */
export function ConsoleLanguage({ children }: { children: ReactNode }) {
  const words = wordsOf(consoleCatalogs, consoleLanguage(navigator.languages));
  useEffect(() => {
    // The page's `lang` and `dir` follow the words, so a screen reader reads them as what they are.
    document.documentElement.lang = words.tag;
    document.documentElement.dir = words.dir;
  }, [words]);
  return <WordsContext.Provider value={words}>{children}</WordsContext.Provider>;
}

/** The console's words (`words.t('hosts.add')`), from the nearest ConsoleLanguage. */
export const useWords = (): ConsoleWords => useContext(WordsContext);
