import { invitationCatalogs } from '../../../../shared/src/messages/invitation';
import { kioskCatalogs } from '../../../../shared/src/messages/kiosk';
import { DEFAULT_LANGUAGE, isLanguage } from '../../../../shared/src/messages/languages';
import { wordsOf } from '../../../../shared/src/messages/translator';
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

// The words are in the invitation catalogs (shared/src/messages/invitation/, docs/languages.md); the kiosk's
// button is named as the kiosk names it in the same language.
const wordsFor = (language: string) => {
  const spoken = isLanguage(language) ? language : DEFAULT_LANGUAGE;
  return { words: wordsOf(invitationCatalogs, spoken), kiosk: wordsOf(kioskCatalogs, spoken) };
};

/** A visit's calendar entry lasts an hour from the expected time, within the pass's validity. */
const VISIT_LENGTH_MS = 60 * 60 * 1000;

/**
 * The visitor's email of an invitation in `language` (English for a code Gatehouse does not speak): who is
 * expected where and when, the pass as an inline QR code (`cid:pass-qr`) and as text, and an `.ics` calendar
 * entry, every word of them in that language and the times on the site's clock as it writes them.
 */
export function invitationEmail(
  language: string,
  facts: InvitationFacts,
  pass: { token: string; qrPng: Buffer },
): RenderedMessage {
  const { words, kiosk } = wordsFor(language);
  const at = (instant: Date) => siteTime(instant, facts.timezone, words.locale);
  const site = facts.siteName;
  const when = at(facts.expectedAt);
  const end = new Date(Math.min(facts.expectedAt.getTime() + VISIT_LENGTH_MS, facts.validUntil.getTime()));
  const ics = calendarEntry({
    uid: `invitation-${facts.accountId}-${facts.invitationId}@gatehouse`,
    sequence: Math.max(0, Math.floor((facts.updatedAt.getTime() - facts.createdAt.getTime()) / 1000)),
    start: facts.expectedAt,
    end,
    summary: words.t('calendar.summary', { site }),
    location: site,
    description: facts.hostName
      ? words.t('calendar.descriptionWithHost', { host: facts.hostName })
      : words.t('calendar.description'),
    stamp: facts.updatedAt,
  });
  return {
    subject: words.t('subject', { site, when }),
    paragraphs: [
      words.t('greeting', { firstName: facts.firstName }),
      facts.hostName
        ? words.t('expectedToSee', { site, when, host: facts.hostName })
        : words.t('expected', { site, when }),
      ...(facts.purpose ? [words.t('purpose', { purpose: facts.purpose })] : []),
      words.t('scan', { button: kiosk.t('home.scanPass') }),
      words.t('validity', { from: at(facts.validFrom), until: at(facts.validUntil) }),
    ],
    actions: [],
    note: words.t('note'),
    language: words.tag,
    dir: words.dir,
    image: { cid: 'pass-qr', alt: words.t('qrAlt'), png: pass.qrPng },
    verbatim: { label: words.t('passLabel'), text: pass.token },
    attachments: [{ filename: 'visit.ics', contentType: 'text/calendar; charset=utf-8; method=PUBLISH', content: ics }],
  };
}
