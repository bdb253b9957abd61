/**
 * The languages a visitor can read Gatehouse in (CONTRACT §26, docs/languages.md). A code is what the API
 * carries (a site's `defaultLanguage`, a host's `language`, a check-in's `language`); `tag` is the BCP 47
 * tag a page's `lang` says and `locale` the one dates and numbers are written in.
 */
export const languages = ['en', 'de', 'fr', 'es', 'zh', 'ar'] as const;
export type Language = (typeof languages)[number];

/** The language of a site that has not chosen one, and of every staff screen. */
export const DEFAULT_LANGUAGE: Language = 'en';

export interface LanguageFacts {
  /** The language's name in itself, as a person who reads it looks for it in a list. */
  ownName: string;
  tag: string;
  locale: string;
  dir: 'ltr' | 'rtl';
}

export const languageFacts: Readonly<Record<Language, LanguageFacts>> = {
  en: { ownName: 'English', tag: 'en', locale: 'en-GB', dir: 'ltr' },
  de: { ownName: 'Deutsch', tag: 'de', locale: 'de-DE', dir: 'ltr' },
  fr: { ownName: 'Français', tag: 'fr', locale: 'fr-FR', dir: 'ltr' },
  es: { ownName: 'Español', tag: 'es', locale: 'es-ES', dir: 'ltr' },
  // `zh` is Simplified Chinese: the tag says the script, so a browser picks Simplified glyphs and fonts.
  zh: { ownName: '中文 (简体)', tag: 'zh-Hans', locale: 'zh-Hans-CN', dir: 'ltr' },
  ar: { ownName: 'العربية', tag: 'ar', locale: 'ar', dir: 'rtl' },
};

export const isLanguage = (value: unknown): value is Language =>
  typeof value === 'string' && (languages as readonly string[]).includes(value);

/**
 * The language a BCP 47 tag asks for, by its first subtag ("de-CH" → de, "zh-CN" → zh), or undefined
 * for one Gatehouse does not speak (Traditional Chinese included: `zh-Hant`, `zh-TW` are not Simplified).
 */
export function languageOfTag(tag: string | null | undefined): Language | undefined {
  if (!tag) return undefined;
  const parts = tag.toLowerCase().split(/[-_]/u);
  if (parts[0] === 'zh' && parts.slice(1).some((part) => ['hant', 'tw', 'hk', 'mo'].includes(part))) return undefined;
  const primary = parts[0];
  return isLanguage(primary) ? primary : undefined;
}
