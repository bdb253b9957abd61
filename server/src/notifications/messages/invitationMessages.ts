import { calendarEntry } from './calendarEntry';
import { siteTime } from './hostMessages';
import type { RenderedMessage } from './rendered';

/** What a visitor's invitation email says (docs/invitations.md, The email). */
export interface InvitationFacts {
  accountId: number;
  invitationId: number;
  firstName: string;
  siteName: string;
  timezone: string;
  hostName: string | null;
  purpose: string | null;
  expectedAt: Date;
  validFrom: Date;
  validUntil: Date;
  /** The invitation's last change: the calendar entry's version. */
  updatedAt: Date;
  createdAt: Date;
}

/**
 * The words of the visitor's email in one language. English only for now: the languages work adds a catalog
 * per language here, and `invitationEmail` picks it by the language asked for.
 */
interface InvitationCatalog {
  locale: string;
  subject: (facts: InvitationFacts, when: string) => string;
  paragraphs: (facts: InvitationFacts, times: { when: string; from: string; until: string }) => string[];
  qrAlt: string;
  passLabel: string;
  note: string;
  calendarSummary: (facts: InvitationFacts) => string;
  calendarDescription: (facts: InvitationFacts) => string;
}

const english: InvitationCatalog = {
  locale: 'en-GB',
  subject: (facts, when) => `Your visit to ${facts.siteName} on ${when}`,
  paragraphs: (facts, times) => [
    `Hello ${facts.firstName},`,
    `You are expected at ${facts.siteName} on ${times.when}${facts.hostName ? ` to see ${facts.hostName}` : ''}${facts.purpose ? ` (${facts.purpose})` : ''}.`,
    `When you arrive, tap Scan a pass on the kiosk in reception and hold this code up to its camera or scanner. Your pass is valid from ${times.from} until ${times.until}, for one check-in.`,
  ],
  qrAlt: 'Your pass as a QR code',
  passLabel: 'If the code cannot be scanned, reception can enter your pass as text:',
  note: 'This pass is for you alone. Do not forward it: a pass used a second time is held for reception to check.',
  calendarSummary: (facts) => `Visit to ${facts.siteName}`,
  calendarDescription: (facts) =>
    `${facts.hostName ? `Visiting ${facts.hostName}. ` : ''}Show the pass from your invitation email at the kiosk in reception.`,
};

const catalogs: Partial<Record<string, InvitationCatalog>> = { en: english };

/** A visit's calendar entry lasts an hour from the expected time, within the pass's validity. */
const VISIT_LENGTH_MS = 60 * 60 * 1000;

/**
 * The visitor's email of an invitation in `language` (English where there is no catalog yet): who is expected
 * where and when, the pass as an inline QR code (`cid:pass-qr`) and as text, and an `.ics` calendar entry.
 */
export function invitationEmail(
  language: string,
  facts: InvitationFacts,
  pass: { token: string; qrPng: Buffer },
): RenderedMessage {
  const catalog = catalogs[language] ?? english;
  const at = (instant: Date) => siteTime(instant, facts.timezone, catalog.locale);
  const when = at(facts.expectedAt);
  const end = new Date(Math.min(facts.expectedAt.getTime() + VISIT_LENGTH_MS, facts.validUntil.getTime()));
  const ics = calendarEntry({
    uid: `invitation-${facts.accountId}-${facts.invitationId}@gatehouse`,
    sequence: Math.max(0, Math.floor((facts.updatedAt.getTime() - facts.createdAt.getTime()) / 1000)),
    start: facts.expectedAt,
    end,
    summary: catalog.calendarSummary(facts),
    location: facts.siteName,
    description: catalog.calendarDescription(facts),
    stamp: facts.updatedAt,
  });
  return {
    subject: catalog.subject(facts, when),
    paragraphs: catalog.paragraphs(facts, { when, from: at(facts.validFrom), until: at(facts.validUntil) }),
    actions: [],
    note: catalog.note,
    language: catalogs[language] ? language : 'en',
    // The invitation's catalog is English only so far (docs/languages.md): left to right.
    dir: 'ltr',
    image: { cid: 'pass-qr', alt: catalog.qrAlt, png: pass.qrPng },
    verbatim: { label: catalog.passLabel, text: pass.token },
    attachments: [{ filename: 'visit.ics', contentType: 'text/calendar; charset=utf-8; method=PUBLISH', content: ics }],
  };
}
