import { badgeCatalogs } from '../../../shared/src/messages/badge';
import { DEFAULT_LANGUAGE, type Language } from '../../../shared/src/messages/languages';
import { wordsOf } from '../../../shared/src/messages/translator';

/** The words printed on a badge besides the visitor's own details, in one language (docs/languages.md). */
export interface BadgeLabels {
  /** BCP 47 tag the dates are written in. */
  locale: string;
  /** Which way the words run: the labelled lines are laid out so. */
  dir: 'ltr' | 'rtl';
  /** The band across the badge ("VISITOR"). */
  visitor: string;
  /** "Host: Grace Hopper". */
  host: (name: string) => string;
  /** "Valid until 23:59, 24 Nov 2026". */
  validUntil: (time: string, date: string) => string;
}

/** The badge's words in `language`: the check-in's, else the site's default. */
export function badgeLabels(language: Language = DEFAULT_LANGUAGE): BadgeLabels {
  const words = wordsOf(badgeCatalogs, language);
  return {
    locale: words.locale,
    dir: words.dir,
    visitor: words.t('band'),
    host: (name) => words.t('host', { name }),
    validUntil: (time, date) => words.t('validUntil', { time, date }),
  };
}
