import type { FieldWords } from '../../shared/src/domain';
import type { ConfigField } from '../../shared/src/schemas/sites';

/** What a visitor is asked for when a standard field is left empty (whatever the site labelled it). */
const askFor: Record<string, string> = {
  firstName: 'Please enter your first name.',
  lastName: 'Please enter your last name.',
  email: 'Please enter your email address.',
  phone: 'Please enter your phone number.',
  company: 'Please enter your company.',
  hostName: 'Please tell us who you are visiting.',
  purpose: 'Please tell us the purpose of your visit.',
};

/** A label inside a sentence: "Badge number" → "badge number"; "NDA" and "Wi-Fi" keep their capitals. */
const inSentence = (label: string) => {
  const text = label.trim().replace(/[:.]$/u, '');
  return /^\p{Lu}\p{Ll}/u.test(text) ? text.charAt(0).toLowerCase() + text.slice(1) : text;
};

const isQuestion = (field: ConfigField) => field.label.trim().endsWith('?');

/**
 * A checkbox a visitor must tick, as a request: "I have read the safety rules" → "Please confirm that you
 * have read the safety rules." A label not said in the first person is named instead.
 */
function askToConfirm(field: ConfigField): string {
  const label = field.label.trim().replace(/[.!]$/u, '');
  const firstPerson = /^I(?:'m| am| have|'ve| )/u.exec(label);
  if (!firstPerson) return `Please tick the box to confirm: ${label}.`;
  const you = label
    .replace(/^I'm\b/u, "you're")
    .replace(/^I've\b/u, "you've")
    .replace(/^I am\b/u, 'you are')
    .replace(/^I\b/u, 'you')
    .replace(/\bmy\b/gu, 'your')
    .replace(/\bme\b/gu, 'you');
  return `Please confirm that ${you}.`;
}

/** The check-in form's words: sentences said to the visitor, beside the field they are about. */
export const visitorFieldWords: FieldWords = {
  required: (field) => {
    if (field.type === 'select')
      return isQuestion(field) ? 'Please choose an answer.' : `Please choose ${inSentence(field.label)}.`;
    return (
      askFor[field.name] ??
      (isQuestion(field) ? 'Please answer this question.' : `Please fill in ${inSentence(field.label)}.`)
    );
  },
  notAccepted: askToConfirm,
  notBoolean: () => 'Please tick the box, or leave it empty.',
  notText: () => 'Please type your answer.',
  tooLong: (_field, max) => `Please shorten this to ${max} characters or fewer.`,
  notEmail: () => 'Please enter an email address, such as name@example.com.',
  notPhone: () => 'Please enter a phone number in digits (spaces, +, brackets and dashes are fine).',
  notOption: () => 'Please choose one of the options.',
};
