import { CreateCheckinRequest, CustomFieldValue, Person } from '../schemas/personCheckins';
import type { ConfigField, StandardFieldName } from '../schemas/sites';
import { standardFieldNames } from '../schemas/sites';

/** The parts of a create request the site configuration speaks about. */
export interface CheckinFormInput {
  person: { firstName?: string; lastName?: string; email?: string; phone?: string; company?: string };
  hostName?: string;
  /** The host chosen from a `host` field's list. */
  hostId?: number;
  purpose?: string;
  customFields?: Record<string, string | boolean>;
}

export interface FormError {
  path: string;
  message: string;
}

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const PHONE = /^\+?[0-9 ().\/-]+$/;

const isStandard = (name: string): name is StandardFieldName =>
  (standardFieldNames as readonly string[]).includes(name);

const personFields = new Set(['firstName', 'lastName', 'email', 'phone', 'company']);

/** Where a configured field lives in the request, as a path for error messages. */
export function fieldPath(name: string): string {
  if (personFields.has(name)) return `person.${name}`;
  if (isStandard(name)) return name;
  return `customFields.${name}`;
}

// Read from the request schema, so a form's limits cannot drift from what the server accepts.
const maxLengths: Record<StandardFieldName, number | null> = {
  firstName: Person.shape.firstName.unwrap().maxLength,
  lastName: Person.shape.lastName.unwrap().maxLength,
  email: Person.shape.email.unwrap().maxLength,
  phone: Person.shape.phone.unwrap().maxLength,
  company: Person.shape.company.unwrap().maxLength,
  hostName: CreateCheckinRequest.shape.hostName.unwrap().maxLength,
  purpose: CreateCheckinRequest.shape.purpose.unwrap().maxLength,
};
const customMaxLength = CustomFieldValue.options[0].maxLength;

/** The most characters a field's text may have (spaces around it not counted), as the create request allows. */
export function fieldMaxLength(name: string): number | undefined {
  return (isStandard(name) ? maxLengths[name] : customMaxLength) ?? undefined;
}

/** The sentence for a value over its field's limit (the kiosk also uses it for the request schema's own refusal). */
export const tooLongMessage = (label: string, max: number) => `${label} can be at most ${max} characters`;

function valueOf(input: CheckinFormInput, name: string): string | boolean | undefined {
  if (name === 'hostName') return input.hostName;
  if (name === 'purpose') return input.purpose;
  if (personFields.has(name)) return input.person[name as keyof CheckinFormInput['person']];
  // Own properties only: a field named `constructor` or `toString` must not read what every object inherits.
  const custom = input.customFields;
  return custom && Object.hasOwn(custom, name) ? custom[name] : undefined;
}

/**
 * The sentences a refused field is explained with. The API's words name the field by its label ("Email must be an
 * email address"); a screen may say it to the person filling the form instead (the kiosk's own words).
 */
export interface FieldWords {
  required: (field: ConfigField) => string;
  notAccepted: (field: ConfigField) => string;
  notBoolean: (field: ConfigField) => string;
  notText: (field: ConfigField) => string;
  tooLong: (field: ConfigField, max: number) => string;
  notEmail: (field: ConfigField) => string;
  notPhone: (field: ConfigField) => string;
  notOption: (field: ConfigField) => string;
}

/** The API's words (422 `errors[].message`, docs/api.md). */
export const apiFieldWords: FieldWords = {
  required: (field) => `${field.label} is required`,
  notAccepted: (field) => `${field.label} must be accepted`,
  notBoolean: (field) => `${field.label} must be true or false`,
  notText: (field) => `${field.label} must be text`,
  tooLong: (field, max) => tooLongMessage(field.label, max),
  notEmail: (field) => `${field.label} must be an email address`,
  notPhone: (field) => `${field.label} must be a phone number`,
  notOption: (field) => `${field.label} must be one of: ${(field.options ?? []).join(', ')}`,
};

function checkField(field: ConfigField, value: string | boolean | undefined, words: FieldWords): string | undefined {
  // A host field's value is the id of a host chosen from the list, in `hostId` (the server checks it is one of the site's).
  if (field.type === 'host') return value === undefined && field.required ? words.required(field) : undefined;
  const empty = value === undefined || value === '' || value === false;
  if (field.type === 'checkbox') {
    if (value !== undefined && typeof value !== 'boolean') return words.notBoolean(field);
    return field.required && value !== true ? words.notAccepted(field) : undefined;
  }
  if (empty) return field.required ? words.required(field) : undefined;
  if (typeof value !== 'string') return words.notText(field);
  const max = fieldMaxLength(field.name);
  // Before the format checks: an over-long email is first of all too long.
  if (max !== undefined && value.trim().length > max) return words.tooLong(field, max);
  if (field.type === 'email' && !EMAIL.test(value)) return words.notEmail(field);
  if (field.type === 'phone' && (!PHONE.test(value) || value.replace(/\D/g, '').length < 3))
    return words.notPhone(field);
  if (field.type === 'select' && !(field.options ?? []).includes(value)) return words.notOption(field);
  return undefined;
}

/** Why `input` does not meet one configured field (in `words`), or undefined when it does. */
export function fieldProblem(
  field: ConfigField,
  input: CheckinFormInput,
  words: FieldWords = apiFieldWords,
): string | undefined {
  return checkField(field, fieldValue(field, input), words);
}

/** A field's value in `input`: a host field's is the chosen host's id, sent as `hostId`. */
function fieldValue(field: ConfigField, input: CheckinFormInput): string | boolean | undefined {
  if (field.type !== 'host') return valueOf(input, field.name);
  return input.hostId === undefined ? undefined : String(input.hostId);
}

/** Where a refusal of the field points in the create body (`hostId` for the host field). */
const errorPath = (field: ConfigField): string => (field.type === 'host' ? 'hostId' : fieldPath(field.name));

/** True when the field holds no value in `input` (absent, empty text, or an unticked checkbox). */
export function fieldIsEmpty(field: ConfigField, input: CheckinFormInput): boolean {
  const value = fieldValue(field, input);
  return value === undefined || value === '' || value === false;
}

/**
 * Checks a check-in against its site's configured fields: every required field present, every value of
 * its type, and no custom field the site does not ask for. The server refuses with these errors (422);
 * the kiosk shows them inline before anything is queued.
 */
export function validateCheckinForm(
  fields: readonly ConfigField[],
  input: CheckinFormInput,
  words: FieldWords = apiFieldWords,
): FormError[] {
  const errors: FormError[] = [];
  for (const field of fields) {
    const message = fieldProblem(field, input, words);
    if (message) errors.push({ path: errorPath(field), message });
  }
  const configured = new Set(fields.map((field) => field.name));
  for (const name of Object.keys(input.customFields ?? {})) {
    if (isStandard(name)) {
      errors.push({ path: `customFields.${name}`, message: `${name} is a standard field; send it in its own place` });
    } else if (!configured.has(name)) {
      errors.push({ path: `customFields.${name}`, message: `This site has no field named ${name}` });
    }
  }
  return errors;
}
