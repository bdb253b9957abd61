import type { CheckinConfigAnswer } from '../../shared/src/client';
import { kioskCatalogs } from '../../shared/src/messages/kiosk';
import { wordsOf } from '../../shared/src/messages/translator';
import {
  CheckinConfigUpdate,
  type ConfigField,
  type StandardFieldName,
  fieldTypes,
  standardFieldNames,
} from '../../shared/src/schemas/sites';
import type { ConsoleWords } from '../language/consoleWords';

/** One field as the editor holds it: options as typed (one per line), a type this console may not know. */
export interface DraftField {
  /** Stable while the field is edited and moved (its name can be mistyped and fixed). */
  key: string;
  name: string;
  label: string;
  type: string;
  required: boolean;
  optionsText: string;
}

export interface Draft {
  requiresApproval: boolean;
  fields: DraftField[];
}

/** First and last name stay required text fields: the server refuses a form without them. */
export const lockedNames: readonly string[] = ['firstName', 'lastName'];
export const isStandard = (name: string): name is StandardFieldName =>
  (standardFieldNames as readonly string[]).includes(name);

/**
 * A standard field's first label is the kiosk's English word for it, so the kiosk recognises it and says it in
 * the visitor's language (docs/languages.md, The site's own words).
 */
const standardLabel = (name: StandardFieldName) => wordsOf(kioskCatalogs, 'en').t(`field.${name}`);
const standardTypes: Record<string, string> = { email: 'email', phone: 'phone' };

const newKey = () => crypto.randomUUID();

export function draftOf(config: CheckinConfigAnswer): Draft {
  return {
    requiresApproval: config.requiresApproval,
    fields: config.fields.map((field) => ({
      key: newKey(),
      name: field.name,
      label: field.label,
      type: field.type,
      required: field.required,
      optionsText: (field.options ?? []).join('\n'),
    })),
  };
}

/** A new field at the end: a standard one gets its usual label and type, a custom one is optional text. */
export function newField(name: string): DraftField {
  return {
    key: newKey(),
    name,
    label: isStandard(name) ? standardLabel(name) : name,
    type: standardTypes[name] ?? 'text',
    required: false,
    optionsText: '',
  };
}

/** Why `name` cannot be added, or null when it can. */
export function refuseName(words: ConsoleWords, draft: Draft, name: string): string | null {
  if (!/^[A-Za-z][A-Za-z0-9_]{0,63}$/.test(name)) return words.t('siteForm.name.invalid');
  if (draft.fields.some((field) => field.name === name)) return words.t('siteForm.name.taken', { name });
  return null;
}

export const optionsOf = (field: DraftField): string[] =>
  field.optionsText
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '');

/** The field as the kiosk would show it; null for a type this console does not know. */
export function shownField(field: DraftField): ConfigField | null {
  const type = fieldTypes.find((known) => known === field.type);
  if (!type) return null;
  return {
    name: field.name,
    label: field.label.trim() || field.name,
    type,
    required: field.required,
    ...(type === 'select' ? { options: optionsOf(field) } : {}),
  };
}

export function moved(draft: Draft, index: number, by: -1 | 1): Draft {
  const target = index + by;
  if (target < 0 || target >= draft.fields.length) return draft;
  const fields = [...draft.fields];
  const [field] = fields.splice(index, 1);
  if (field) fields.splice(target, 0, field);
  return { ...draft, fields };
}

export type DraftErrors = { byField: Record<string, string>; form: string[] };

/** What the server is sent, or what to fix first, field by field in plain words (the server's own rules). */
export function checkDraft(
  words: ConsoleWords,
  draft: Draft,
): { ok: true; body: CheckinConfigUpdate } | { ok: false; errors: DraftErrors } {
  const body = {
    requiresApproval: draft.requiresApproval,
    fields: draft.fields.map((field) => ({
      name: field.name,
      label: field.label,
      type: field.type,
      required: field.required,
      ...(field.type === 'select' ? { options: optionsOf(field) } : {}),
    })),
  };
  const parsed = CheckinConfigUpdate.safeParse(body);
  if (parsed.success) return { ok: true, body: parsed.data };
  const errors: DraftErrors = { byField: {}, form: [] };
  for (const issue of parsed.error.issues) {
    const [top, index, property] = issue.path;
    const field = top === 'fields' && typeof index === 'number' ? draft.fields[index] : undefined;
    if (!field) {
      errors.form.push(issue.message);
      continue;
    }
    errors.byField[field.key] ??= fieldWords(words, field, property, issue.message);
  }
  return { ok: false, errors };
}

// Other rules are the shared schema's, in its own (English) words.
function fieldWords(
  words: ConsoleWords,
  field: DraftField,
  property: PropertyKey | undefined,
  message: string,
): string {
  if (property === 'label')
    return field.label.trim() === '' ? words.t('siteForm.label.missing') : words.t('siteForm.label.tooLong');
  if (property === 'options')
    return optionsOf(field).length === 0 ? words.t('siteForm.options.missing') : words.t('siteForm.options.tooMany');
  if (property === 'type' && !(fieldTypes as readonly string[]).includes(field.type))
    return words.t('siteForm.type.unknown', { type: field.type });
  return message;
}
