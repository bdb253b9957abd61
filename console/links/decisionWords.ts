import { type HostDecisionMessage, hostDecisionCatalogs } from '../../shared/src/messages/hostDecision';
import { DEFAULT_LANGUAGE, type Language, isLanguage, languageOfTag } from '../../shared/src/messages/languages';
import { type MessageValue, type Words, wordsOf } from '../../shared/src/messages/translator';

/**
 * The decision page's words (docs/languages.md, Hosts): not the console's English, but the host's language,
 * like the message whose link opened the page. `say` rather than `t`: these keys are not the console's.
 */
export interface DecisionWords {
  readonly tag: string;
  readonly dir: 'ltr' | 'rtl';
  say: (key: HostDecisionMessage, values?: Readonly<Record<string, MessageValue>>) => string;
  /** "Di., 24. Nov., 09:41 MEZ": a time on the site's clock, as the language writes it. */
  siteTime: (iso: string, timeZone: string) => string;
}

/** Before the preview says the host's language (or when it cannot): the browser's first one Gatehouse speaks. */
export function browserLanguage(preferred: readonly string[]): Language {
  for (const tag of preferred) {
    const language = languageOfTag(tag);
    if (language) return language;
  }
  return DEFAULT_LANGUAGE;
}

const made = new Map<Language, DecisionWords>();

/** The page's words in `language` (a code the page does not know speaks the browser's language). */
export function decisionWords(language: string | undefined): DecisionWords {
  const spoken = isLanguage(language) ? language : browserLanguage(navigator.languages);
  const kept = made.get(spoken);
  if (kept) return kept;
  const words: Words<HostDecisionMessage> = wordsOf(hostDecisionCatalogs, spoken);
  const decision: DecisionWords = {
    tag: words.tag,
    dir: words.dir,
    say: (key, values) => words.t(key, values),
    siteTime: (iso, timeZone) =>
      words.date(iso, {
        timeZone,
        weekday: 'short',
        day: 'numeric',
        month: 'short',
        hour: '2-digit',
        minute: '2-digit',
        timeZoneName: 'short',
      }),
  };
  made.set(spoken, decision);
  return decision;
}
