import type { RenderedMessage } from './rendered';

/** What a host's message says about a visit (docs/notifications.md, What the host is told). */
export interface VisitFacts {
  visitor: { firstName: string; lastName: string; company: string | null };
  siteName: string;
  timezone: string;
  /** When the visitor arrived (or began to wait). */
  at: Date;
}

/**
 * The words of a host's messages in one language: one function per message. English only for now; the
 * languages issue adds a catalog per language (docs/notifications.md, Languages), looked up by `catalogFor`.
 */
export interface HostMessageCatalog {
  /** The locale dates and times are written in. */
  locale: string;
  arrived: (facts: VisitFacts, when: string) => { subject: string; paragraphs: string[] };
  waiting: (facts: VisitFacts, when: string) => { subject: string; paragraphs: string[] };
  approve: string;
  deny: string;
  linksNote: string;
}

const who = (facts: VisitFacts) => {
  const name = `${facts.visitor.firstName} ${facts.visitor.lastName}`.trim();
  return facts.visitor.company ? `${name} from ${facts.visitor.company}` : name;
};

const english: HostMessageCatalog = {
  locale: 'en-GB',
  arrived: (facts, when) => ({
    subject: `${who(facts)} has arrived at ${facts.siteName}`,
    paragraphs: [`${who(facts)} arrived at ${facts.siteName} at ${when} to see you.`],
  }),
  waiting: (facts, when) => ({
    subject: `${who(facts)} is waiting for your approval at ${facts.siteName}`,
    paragraphs: [
      `${who(facts)} arrived at ${facts.siteName} at ${when} to see you and is waiting to be let in.`,
      'Approve to let them in, or deny to turn them away.',
    ],
  }),
  approve: 'Approve',
  deny: 'Deny',
  linksNote:
    'Each link works once, until the visit is decided or for 24 hours, and asks you to confirm. Do not forward this message: whoever has a link can decide.',
};

const catalogs: Partial<Record<string, HostMessageCatalog>> = { en: english };

/** The catalog of a language, English for one without a catalog yet. */
export const catalogFor = (language: string): HostMessageCatalog => catalogs[language] ?? english;

/** The visit's time as the site reads it, with its zone: "Tue 24 Nov, 09:41 CET". */
export function siteTime(at: Date, timezone: string, locale: string): string {
  return new Intl.DateTimeFormat(locale, {
    timeZone: timezone,
    weekday: 'short',
    day: 'numeric',
    month: 'short',
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
    timeZoneName: 'short',
  }).format(at);
}

/** "Your visitor has arrived" (`IN`). */
export function arrivedMessage(language: string, facts: VisitFacts): RenderedMessage {
  const catalog = catalogFor(language);
  const words = catalog.arrived(facts, siteTime(facts.at, facts.timezone, catalog.locale));
  return { ...words, actions: [], note: null, language: catalogs[language] ? language : 'en' };
}

/** "Your visitor waits for your approval" (`PENDING`), with the one-time Approve and Deny links. */
export function waitingMessage(
  language: string,
  facts: VisitFacts,
  links: { approve: string; deny: string },
): RenderedMessage {
  const catalog = catalogFor(language);
  const words = catalog.waiting(facts, siteTime(facts.at, facts.timezone, catalog.locale));
  return {
    ...words,
    actions: [
      { label: catalog.approve, url: links.approve, style: 'primary' },
      { label: catalog.deny, url: links.deny, style: 'danger' },
    ],
    note: catalog.linksNote,
    language: catalogs[language] ? language : 'en',
  };
}
