import type { FieldWords } from '../../shared/src/domain';
import type { KioskMessage } from '../../shared/src/messages/kiosk';
import type { ConfigField } from '../../shared/src/schemas/sites';
import { fieldLabel } from './language/visitorWords';
import type { KioskWords } from './language/VisitorLanguage';

/** What a visitor is asked for when a standard field is left empty (whatever the site labelled it). */
const askFor: Partial<Record<string, KioskMessage>> = {
  firstName: 'ask.firstName',
  lastName: 'ask.lastName',
  email: 'ask.email',
  phone: 'ask.phone',
  company: 'ask.company',
  hostName: 'ask.hostName',
  purpose: 'ask.purpose',
};

/**
 * A label inside an English sentence: "Badge number" → "badge number"; "NDA" and "Wi-Fi" keep their
 * capitals. English only: other languages quote the label as written (German capitalises its nouns).
 */
const inSentence = (words: KioskWords, label: string) => {
  const text = label.trim().replace(/[:.]$/u, '');
  if (words.language !== 'en') return text;
  return /^\p{Lu}\p{Ll}/u.test(text) ? text.charAt(0).toLowerCase() + text.slice(1) : text;
};

const isQuestion = (label: string) => label.trim().endsWith('?');

/**
 * A checkbox a visitor must tick, as a request: "I have read the safety rules" → "Please confirm that you
 * have read the safety rules." Only an English label said in the first person is turned round; any other is
 * named as it is ("Please tick the box to confirm: NDA signed.").
 */
function askToConfirm(words: KioskWords, shown: string): string {
  const label = shown.trim().replace(/[.!]$/u, '');
  const firstPerson = words.language === 'en' && /^I(?:'m| am| have|'ve| )/u.test(label);
  if (!firstPerson) return words.t('ask.confirmBox', { label });
  const statement = label
    .replace(/^I'm\b/u, "you're")
    .replace(/^I've\b/u, "you've")
    .replace(/^I am\b/u, 'you are')
    .replace(/^I\b/u, 'you')
    .replace(/\bmy\b/gu, 'your')
    .replace(/\bme\b/gu, 'you');
  return words.t('ask.confirmThat', { statement });
}

/** The check-in form's words in the visitor's language: sentences said beside the field they are about. */
export function visitorFieldWords(words: KioskWords): FieldWords {
  const label = (field: ConfigField) => fieldLabel(words, field);
  return {
    required: (field) => {
      const shown = label(field);
      if (field.type === 'select')
        return isQuestion(shown)
          ? words.t('ask.chooseAnswer')
          : words.t('ask.choose', { label: inSentence(words, shown) });
      const standard = askFor[field.name];
      if (standard) return words.t(standard);
      return isQuestion(shown) ? words.t('ask.answer') : words.t('ask.fillIn', { label: inSentence(words, shown) });
    },
    notAccepted: (field) => askToConfirm(words, label(field)),
    notBoolean: () => words.t('ask.tickOrLeave'),
    notText: () => words.t('ask.typeAnswer'),
    tooLong: (_field, max) => words.t('ask.shorten', { max }),
    notEmail: () => words.t('ask.emailFormat'),
    notPhone: () => words.t('ask.phoneFormat'),
    notOption: () => words.t('ask.option'),
  };
}
