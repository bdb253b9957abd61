import type { ConfigField } from '../schemas/sites';
import { type CheckinFormInput, type FormError, fieldIsEmpty, fieldProblem, validateCheckinForm } from './checkinForm';

/** A field of the current form that a check-in made on an older form does not meet. */
export interface IncompleteField {
  name: string;
  label: string;
  /** Nothing was given (the older form did not ask for it); else the value given does not fit it now. */
  missing: boolean;
  /** What the current form says of it ("Company is required"). */
  message: string;
}

export type OlderFormVerdict = { ok: true; incomplete: IncompleteField[] } | { ok: false; errors: FormError[] };

/**
 * A check-in made on an older version of its site's form (docs/api.md, Form versions): it must meet that
 * form, as the person filling it saw it; what the current form asks beyond it is listed, not refused, so a
 * kiosk that had not yet fetched a change never turns a visitor away. Custom fields the older form asked
 * for and the current one no longer does are kept as they were given.
 */
export function checkOlderForm(
  older: readonly ConfigField[],
  current: readonly ConfigField[],
  input: CheckinFormInput,
): OlderFormVerdict {
  const errors = validateCheckinForm(older, input);
  if (errors.length > 0) return { ok: false, errors };
  const incomplete: IncompleteField[] = [];
  for (const field of current) {
    const message = fieldProblem(field, input);
    if (message === undefined) continue;
    incomplete.push({ name: field.name, label: field.label, missing: fieldIsEmpty(field, input), message });
  }
  return { ok: true, incomplete };
}

/** The alert's words for a check-in that did not meet the current form: "Checked in with an older form: Company missing". */
export function olderFormAlertText(incomplete: readonly IncompleteField[]): string {
  const missing = incomplete.filter((field) => field.missing).map((field) => field.label);
  const parts = [
    ...(missing.length > 0 ? [`${missing.join(', ')} missing`] : []),
    ...incomplete.filter((field) => !field.missing).map((field) => field.message),
  ];
  return `Checked in with an older form: ${parts.join('; ')}`;
}
