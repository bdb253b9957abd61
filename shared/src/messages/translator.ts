import { type IntlShape, createIntl, createIntlCache } from '@formatjs/intl';
import { DEFAULT_LANGUAGE, type Language, languageFacts } from './languages';

/** One language's messages (ICU MessageFormat), by key. */
export type Catalog<K extends string> = Readonly<Record<K, string>>;

/** An area's catalogs: English always (every other falls back to it), the others as translated. */
export type Catalogs<K extends string> = Readonly<{ en: Catalog<K> } & Partial<Record<Language, Catalog<K>>>>;

/** What a placeholder may be filled with. */
export type MessageValue = string | number | Date;

/** A tag in a message (`<name>Ada</name>`): the tag's contents in, whatever the caller renders out. */
export type TagRenderer<T> = (chunks: Array<string | T>) => T;

/** An area's words in one language: the messages, and the facts a screen needs to show them. */
export interface Words<K extends string> {
  readonly language: Language;
  /** The BCP 47 tag of a page's `lang`. */
  readonly tag: string;
  /** The locale dates and numbers are written in. */
  readonly locale: string;
  readonly dir: 'ltr' | 'rtl';
  /** The message `key` with its placeholders filled in. */
  t: (key: K, values?: Readonly<Record<string, MessageValue>>) => string;
  /** The message `key` with its tags rendered by `values`' functions (`{ b: (chunks) => <b>{chunks}</b> }`). */
  rich: <T>(key: K, values: Readonly<Record<string, MessageValue | T | TagRenderer<T>>>) => Array<string | T>;
  /** A date or time in this language (`Intl.DateTimeFormat` options). */
  date: (at: Date | number | string, options: Intl.DateTimeFormatOptions) => string;
}

/** What happens to a message that cannot be formatted (a placeholder missing at a call site): it is logged. */
export type FormatProblem = (error: Error) => void;

const cache = createIntlCache();

// One Words per catalogs and language: formatters are built once and kept (formatjs caches them per intl).
const made = new WeakMap<object, Map<string, Words<string>>>();

/**
 * The words of `catalogs` in `language`; a language the area has no catalog for (the console is English
 * only) speaks English. Built once per catalogs and language.
 */
export function wordsOf<K extends string>(
  catalogs: Catalogs<K>,
  language: Language,
  onProblem: FormatProblem = (error) => console.error(error.message),
): Words<K> {
  const known = made.get(catalogs) ?? new Map<string, Words<string>>();
  made.set(catalogs, known);
  const kept = known.get(language);
  if (kept) return kept;
  const spoken: Language = catalogs[language] ? language : DEFAULT_LANGUAGE;
  const facts = languageFacts[spoken];
  const intl: IntlShape<unknown> = createIntl<unknown>(
    {
      locale: facts.locale,
      defaultLocale: languageFacts[DEFAULT_LANGUAGE].locale,
      messages: catalogs[spoken] ?? catalogs.en,
      onError: onProblem,
    },
    cache,
  );
  const words: Words<K> = {
    language: spoken,
    tag: facts.tag,
    locale: facts.locale,
    dir: facts.dir,
    t: (key, values) => String(intl.formatMessage({ id: key }, values)),
    rich: <T>(key: K, values: Readonly<Record<string, MessageValue | T | TagRenderer<T>>>) => {
      const out = intl.formatMessage({ id: key }, values as Record<string, never>) as unknown;
      return (Array.isArray(out) ? out : [out]) as Array<string | T>;
    },
    date: (at, options) => intl.formatDate(at, options),
  };
  known.set(language, words as Words<string>);
  return words;
}
