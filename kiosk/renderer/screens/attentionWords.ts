import type { AttentionItem, FieldErrorLine } from '../../src/data/attention';
import { isCreate } from '../../src/data/types';

// What Needs attention says about a refusal's details and about discarding, kept beside the screen that says it.

/** "Badge number is required", or "customFields.badgeNumber: Badge number is required" when the message does not name the field. */
export function fieldErrorText({ field, message }: FieldErrorLine): string {
  return message.startsWith(field) ? message : `${field}: ${message}`;
}

/**
 * Retry sends the very same request, so after a 422 for missing or wrong details it helps only if the site's
 * rules change back; the way forward is to record the visit again with the details the server wants.
 */
export function refusedDetailsAdvice(item: AttentionItem): string | undefined {
  if (item.action.lastError?.code !== 'VALIDATION_FAILED') return undefined;
  const again =
    'Retry sends the same details again, so the server will refuse them again unless the site settings change.';
  if (item.action.kind === 'PERSON_CHECKIN')
    return `${again} If ${item.who} is still on site, check them in again with these details, then discard this one.`;
  return again;
}

const lowerFirst = (text: string) => text.charAt(0).toLowerCase() + text.slice(1);

/** The question the Discard confirmation asks. */
export const discardQuestion = (item: AttentionItem) => `Discard this ${lowerFirst(item.description)}?`;

/** What discarding does, said before it is done: a discarded create takes the visit off this kiosk's lists. */
export function discardConsequence(item: AttentionItem): string {
  const { action, who, waiting } = item;
  const later =
    waiting === 0
      ? ''
      : ` The ${waiting === 1 ? 'later action' : `${waiting} later actions`} of this visit waiting behind it will be discarded too.`;
  if (action.kind === 'PERSON_CHECKIN') {
    return (
      `${who} will leave the Roll call, the list used if the site is evacuated, and the server will never hear of this visit. ` +
      `If ${who} is still on site, check them in again first.${later}`
    );
  }
  if (isCreate(action.kind))
    return `${who} will leave the vehicles on site, and the server will never hear of this entry.${later}`;
  return `The server will never receive it, and this kiosk will show ${who} as if it had not happened.`;
}

export const discardNeedsPin = 'Discarding needs the settings PIN of this kiosk.';

export const discardLockedByBadPin =
  'Discard is locked: the settings PIN set for this kiosk is not 4 to 12 digits. Correct it and start the kiosk again.';
