import type { FieldWords } from '../shared/src/domain';
// The kiosk's sentences for a field left wrong: the visitor reads the same ones on either (pure, no kiosk state).
import { visitorFieldWords } from '../kiosk/renderer/fieldWords';
import { visitorFieldLabel } from '../shared/src/messages/fieldLabels';
import { kioskCatalogs } from '../shared/src/messages/kiosk';
import { type VisitMessage, visitCatalogs } from '../shared/src/messages/visit';
import type { ConfigField } from '../shared/src/schemas/sites';
import { DEFAULT_LANGUAGE, type Language, languageOfTag } from '../shared/src/messages/languages';
import { wordsOf } from '../shared/src/messages/translator';

/**
 * The phone's language: the first of the browser's preferred languages Gatehouse speaks, else English
 * (docs/languages.md, The visitor's phone). A phone is one person's, so its settings say what they read.
 */
export function phoneLanguage(preferred: readonly string[]): Language {
  for (const tag of preferred) {
    const language = languageOfTag(tag);
    if (language) return language;
  }
  return DEFAULT_LANGUAGE;
}

const spoken = wordsOf(visitCatalogs, phoneLanguage(typeof navigator === 'undefined' ? [] : navigator.languages));

/**
 * The page's language (what a check-in records, so the badge is printed in it), its `lang` and `dir`, and
 * the locale its times are written in.
 */
export const pageLanguage = { language: spoken.language, tag: spoken.tag, dir: spoken.dir, locale: spoken.locale };

const t = (key: VisitMessage, values?: Record<string, string>) => spoken.t(key, values);

/** Every word the visitor's phone page shows, from the `visit` catalogs, in the phone's language. */
export const words = {
  pageTitle: (site: string) => t('pageTitle', { site }),
  loading: t('loading'),
  unknownCodeTitle: t('unknownCodeTitle'),
  unknownCode: t('unknownCode'),
  archivedTitle: t('archivedTitle'),
  archived: (site: string) => t('archived', { site }),
  unreachable: t('unreachable'),
  formIntro: t('formIntro'),
  checkIn: t('checkIn'),
  checkingIn: t('checkingIn'),
  chooseHost: t('chooseHost'),
  required: t('required'),
  fixBelow: t('fixBelow'),
  tooMany: t('tooMany'),
  refused: t('refused'),
  welcome: (name: string) => t('welcome', { name }),
  showReception: t('showReception'),
  signedInAt: (site: string, time: string) => t('signedInAt', { site, time }),
  host: (name: string) => t('host', { name }),
  waitingTitle: t('waitingTitle'),
  waiting: t('waiting'),
  seeReception: t('seeReception'),
  onBreakTitle: t('onBreakTitle'),
  onBreakSince: (time: string) => t('onBreakSince', { time }),
  takeBreak: t('takeBreak'),
  endBreak: t('endBreak'),
  checkOut: t('checkOut'),
  working: t('working'),
  checkedOutTitle: t('checkedOutTitle'),
  checkedOut: (time: string) => t('checkedOut', { time }),
  newCheckIn: t('newCheckIn'),
  actionFailed: t('actionFailed'),
} as const;

const kioskWords = wordsOf(kioskCatalogs, spoken.language);

/** A field's label as the visitor reads it, as on the kiosk: a standard one in the phone's language. */
export const fieldLabel = (field: ConfigField): string => visitorFieldLabel(kioskWords, field);

/** What the form says of a field left empty or wrong, in the phone's language (the kiosk's sentences). */
export const fieldWords: FieldWords = visitorFieldWords(kioskWords);
