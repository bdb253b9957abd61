import { type ConsoleMessage, consoleCatalogs } from '../../shared/src/messages/console';
import { DEFAULT_LANGUAGE, type Language, languageOfTag } from '../../shared/src/messages/languages';
import type { Words } from '../../shared/src/messages/translator';

export type ConsoleWords = Words<ConsoleMessage>;

/**
 * The language the console speaks: the first of the browser's preferred languages it has a catalog for,
 * else English (docs/languages.md, The console). Only English exists, so today this is always English.
 */
export function consoleLanguage(preferred: readonly string[]): Language {
  for (const tag of preferred) {
    const language = languageOfTag(tag);
    if (language && consoleCatalogs[language]) return language;
  }
  return DEFAULT_LANGUAGE;
}
