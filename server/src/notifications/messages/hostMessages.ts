import { hostNotificationCatalogs } from '../../../../shared/src/messages/hostNotifications';
import { DEFAULT_LANGUAGE, isLanguage } from '../../../../shared/src/messages/languages';
import { zonedTime } from '../../../../shared/src/messages/times';
import { wordsOf } from '../../../../shared/src/messages/translator';
import type { RenderedMessage } from './rendered';

/** What a host's message says about a visit (docs/notifications.md, What the host is told). */
export interface VisitFacts {
  visitor: { firstName: string; lastName: string; company: string | null };
  siteName: string;
  timezone: string;
  /** When the visitor arrived (or began to wait). */
  at: Date;
}

// The words are in the host-notification catalogs (shared/src/messages/hostNotifications/, docs/languages.md).
const wordsFor = (language: string) =>
  wordsOf(hostNotificationCatalogs, isLanguage(language) ? language : DEFAULT_LANGUAGE);

/** "Ada Lovelace from ACME", in the message's language. */
const who = (words: ReturnType<typeof wordsFor>, facts: VisitFacts) => {
  const name = `${facts.visitor.firstName} ${facts.visitor.lastName}`.trim();
  return facts.visitor.company ? words.t('visitor.withCompany', { name, company: facts.visitor.company }) : name;
};

/** What every message says of the visit: who, where, when on the site's clock. */
const placeholders = (words: ReturnType<typeof wordsFor>, facts: VisitFacts) => ({
  visitor: who(words, facts),
  site: facts.siteName,
  time: siteTime(facts.at, facts.timezone, words.locale),
});

/** The visit's time as the site reads it, with its zone: "Tue 24 Nov, 09:41 CET". */
export const siteTime = (at: Date, timezone: string, locale: string): string => zonedTime(locale, at, timezone);

/** "Your visitor has arrived" (`IN`). */
export function arrivedMessage(language: string, facts: VisitFacts): RenderedMessage {
  const words = wordsFor(language);
  const values = placeholders(words, facts);
  return {
    subject: words.t('arrived.subject', values),
    paragraphs: [words.t('arrived.body', values)],
    actions: [],
    note: null,
    language: words.tag,
    dir: words.dir,
  };
}

/** "Your visitor waits for your approval" (`PENDING`), with the one-time Approve and Deny links. */
export function waitingMessage(
  language: string,
  facts: VisitFacts,
  links: { approve: string; deny: string },
): RenderedMessage {
  const words = wordsFor(language);
  const values = placeholders(words, facts);
  return {
    subject: words.t('waiting.subject', values),
    paragraphs: [words.t('waiting.body', values), words.t('waiting.ask')],
    actions: [
      { label: words.t('approve'), url: links.approve, style: 'primary' },
      { label: words.t('deny'), url: links.deny, style: 'danger' },
    ],
    note: words.t('linksNote'),
    language: words.tag,
    dir: words.dir,
  };
}
