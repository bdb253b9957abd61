import { type ConfigField, type StandardFieldName, standardFieldNames } from '../schemas/sites';
import type { KioskMessage } from './kiosk';
import english from './kiosk/en.json';
import type { Words } from './translator';

/**
 * The labels the console gives a standard field, each a kiosk catalog word: a host field added with "Add a
 * host field" is first labelled as a question ("Who are you visiting?"), a host field typed in as text by
 * its name ("Host").
 */
const standardLabels: Readonly<Record<StandardFieldName, readonly KioskMessage[]>> = {
  firstName: ['field.firstName'],
  lastName: ['field.lastName'],
  email: ['field.email'],
  phone: ['field.phone'],
  company: ['field.company'],
  hostName: ['field.hostName', 'field.hostQuestion'],
  purpose: ['field.purpose'],
};

/** The label "Add a host field" gives the host field: a standard label, so it is said in every language. */
export const HOST_FIELD_LABEL: string = english['field.hostQuestion'];

const isStandard = (name: string): name is StandardFieldName =>
  (standardFieldNames as readonly string[]).includes(name);

/**
 * A field's label as a visitor reads it, on the kiosk and on their phone alike: a standard field still
 * labelled as the console labels it ("First name", "Who are you visiting?") is said in the visitor's
 * language; a label the site wrote itself is the site's words and is shown as written (docs/languages.md,
 * The site's own words).
 */
export function visitorFieldLabel(words: Words<KioskMessage>, field: ConfigField): string {
  if (!isStandard(field.name)) return field.label;
  const typed = field.label.trim();
  const standard = standardLabels[field.name].find((key) => english[key] === typed);
  return standard ? words.t(standard) : field.label;
}
