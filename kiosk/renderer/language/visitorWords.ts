import { isKnown } from '../../../shared/src/client/answers';
import { personStatuses } from '../../../shared/src/domain';
import { visitorFieldLabel } from '../../../shared/src/messages/fieldLabels';
import { clockTime, dayAndTime } from '../../../shared/src/messages/times';
import type { ConfigField } from '../../../shared/src/schemas/sites';
import type { KeptPersonStatus } from '../../src/data/types';
import type { KioskWords } from './VisitorLanguage';

/** A visit's status in the visitor's words; one a newer server added has none, so it shows as it came. */
export function visitStatusText(words: KioskWords, status: KeptPersonStatus): string {
  return isKnown(personStatuses, status) ? words.t(`visitStatus.${status}`) : status;
}

const refusalCodes = [
  'VALIDATION_FAILED',
  'CHECKIN_CLOSED',
  'BREAK_ALREADY_OPEN',
  'NO_OPEN_BREAK',
  'CHECKIN_NOT_ADMITTED',
  'NOT_FOUND',
  'NOT_SAVED',
  'BADGE_UNREADABLE',
  'BADGE_OTHER_SITE',
  'BADGE_UNKNOWN',
] as const;

/**
 * Why the kiosk did not do what the visitor asked, by the refusal's code. The commands' own messages are
 * English and for logs; a code the visitor screens do not expect reads as a plain "that did not work".
 */
export function visitorReason(words: KioskWords, code: string): string {
  return isKnown(refusalCodes, code) ? words.t(`refusal.${code}`) : words.t('refusal.other');
}

/** "09:41", or "Mon 09:41" when not today, in the visitor's language. */
export function visitorTime(words: KioskWords, iso: string, now: Date = new Date()): string {
  const at = new Date(iso);
  return at.toDateString() === now.toDateString() ? clockTime(words.locale, at) : dayAndTime(words.locale, at);
}

/**
 * A field's label as the visitor reads it: a standard label in the visitor's language, the site's own as
 * written (shared with the visitor's phone: visitorFieldLabel).
 */
export const fieldLabel = (words: KioskWords, field: ConfigField): string => visitorFieldLabel(words, field);
