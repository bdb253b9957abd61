import { type CheckinFormInput, type FormError, fieldPath } from './checkinForm';
import type { ConfigField } from '../schemas/sites';

/** What the form holds: one value per configured field, by field name. */
export type FormValues = Record<string, string | boolean>;

const personFields = ['firstName', 'lastName', 'email', 'phone', 'company'] as const;
type PersonField = (typeof personFields)[number];
const isPersonField = (name: string): name is PersonField => (personFields as readonly string[]).includes(name);

/** The check-in as the shared validator and the local command read it; blank text is left out. */
export function formInput(fields: readonly ConfigField[], values: FormValues): CheckinFormInput {
  const input: CheckinFormInput = { person: {} };
  const customFields: Record<string, string | boolean> = {};
  for (const field of fields) {
    const raw = values[field.name];
    const value = typeof raw === 'string' ? raw.trim() : raw;
    if (value === undefined || value === '' || value === false) continue;
    // A host field holds the id of the host chosen from the list.
    if (field.type === 'host') {
      if (typeof value === 'string' && /^[1-9][0-9]{0,9}$/.test(value)) input.hostId = Number(value);
      continue;
    }
    if (typeof value === 'string' && isPersonField(field.name)) input.person[field.name] = value;
    else if (typeof value === 'string' && field.name === 'hostName') input.hostName = value;
    else if (typeof value === 'string' && field.name === 'purpose') input.purpose = value;
    else customFields[field.name] = value;
  }
  if (Object.keys(customFields).length > 0) input.customFields = customFields;
  return input;
}

/** Where a field's errors point: a host field's at `hostId`, which it fills. */
const pathOf = (field: ConfigField) => (field.type === 'host' ? 'hostId' : fieldPath(field.name));

/** Errors by field name (the first per field), for showing each under its input. */
export function errorsByField(fields: readonly ConfigField[], errors: readonly FormError[]): Record<string, string> {
  const byPath = new Map(fields.map((field) => [pathOf(field), field.name]));
  const result: Record<string, string> = {};
  for (const error of errors) {
    const name = byPath.get(error.path);
    if (name !== undefined && result[name] === undefined) result[name] = error.message;
  }
  return result;
}

/** Errors that belong to no field on screen (shown above the form, never dropped). */
export function otherErrors(fields: readonly ConfigField[], errors: readonly FormError[]): FormError[] {
  const paths = new Set(fields.map(pathOf));
  return errors.filter((error) => !paths.has(error.path));
}
