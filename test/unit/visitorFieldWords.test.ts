import { describe, expect, it } from 'vitest';
import { digestMessages, matchesDigest, validateCheckinForm } from '../../shared/src/domain';
import type { ConfigField } from '../../shared/src/schemas/sites';
import { visitorFieldWords } from '../../kiosk/renderer/fieldWords';
import { kioskCatalogs } from '../../shared/src/messages/kiosk';
import type { Language } from '../../shared/src/messages/languages';
import { wordsOf } from '../../shared/src/messages/translator';

const text = (name: string, label: string, required = true): ConfigField => ({ name, label, type: 'text', required });
const messages = (fields: ConfigField[], input: Parameters<typeof validateCheckinForm>[1], language: Language = 'en') =>
  validateCheckinForm(fields, input, visitorFieldWords(wordsOf(kioskCatalogs, language))).map((error) => error.message);

describe('the check-in form speaks to the visitor in sentences', () => {
  it('asks for a missing standard field by what it is, whatever its label', () => {
    expect(
      messages([text('firstName', 'First name'), text('hostName', 'Who are you visiting?')], { person: {} }),
    ).toEqual(['Please enter your first name.', 'Please tell us who you are visiting.']);
  });

  it("asks to confirm a required checkbox, in the visitor's person when the label speaks as them", () => {
    const box = (label: string): ConfigField => ({ name: 'box', label, type: 'checkbox', required: true });
    expect(messages([box('I have read the safety briefing')], { person: {} })).toEqual([
      'Please confirm that you have read the safety briefing.',
    ]);
    expect(messages([box("I'm over 18 and agree to my badge being photographed.")], { person: {} })).toEqual([
      "Please confirm that you're over 18 and agree to your badge being photographed.",
    ]);
    expect(messages([box('NDA signed')], { person: {} })).toEqual(['Please tick the box to confirm: NDA signed.']);
  });

  it('says what a malformed, over-long or unlisted value needs, never "must be"', () => {
    const fields: ConfigField[] = [
      { name: 'email', label: 'Email', type: 'email', required: false },
      { name: 'phone', label: 'Phone', type: 'phone', required: false },
      text('badge', 'Badge number'),
      { name: 'visitType', label: 'Visit type', type: 'select', required: true, options: ['Meeting'] },
      text('firstName', 'First name'),
    ];
    const said = messages(fields, {
      person: { email: 'nope', phone: 'call me', firstName: 'A'.repeat(101) },
      customFields: { visitType: 'Party' },
    });
    expect(said).toEqual([
      'Please enter an email address, such as name@example.com.',
      'Please enter a phone number in digits (spaces, +, brackets and dashes are fine).',
      'Please fill in badge number.',
      'Please choose one of the options.',
      'Please shorten this to 100 characters or fewer.',
    ]);
    for (const message of said) expect(message).not.toMatch(/must be|is required/);
  });

  it("speaks the visitor's language: standard fields by what they are, the site's labels as written", () => {
    const fields: ConfigField[] = [
      text('firstName', 'First name'),
      text('badge', 'Ausweisnummer'),
      { name: 'box', label: 'I have read the safety briefing', type: 'checkbox', required: true },
      { name: 'visitType', label: 'Besuchsart', type: 'select', required: true, options: ['Meeting'] },
    ];
    expect(messages(fields, { person: {} }, 'de')).toEqual([
      'Bitte geben Sie Ihren Vornamen ein.',
      'Bitte füllen Sie „Ausweisnummer“ aus.',
      // Only English labels are turned round into "you"; any other is quoted as the site wrote it.
      'Bitte setzen Sie das Häkchen zur Bestätigung: I have read the safety briefing.',
      'Bitte treffen Sie eine Auswahl bei „Besuchsart“.',
    ]);
    expect(messages([text('firstName', 'First name')], { person: { firstName: 'A'.repeat(101) } }, 'ar')).toEqual([
      'يرجى اختصار النص إلى 100 حرف على الأكثر.',
    ]);
  });

  it('the API keeps its own words (422 errors name the field by its label)', () => {
    expect(validateCheckinForm([text('badge', 'Badge number')], { person: {} })[0]?.message).toBe(
      'Badge number is required',
    );
  });
});

describe('watchlist digest messages', () => {
  it('normalize as the server matches: email case, phone digits, full name case and spaces', () => {
    expect(
      digestMessages({
        email: ' Eve@Example.COM ',
        phone: '+44 (20) 7946-0958',
        firstName: ' Mallory ',
        lastName: 'van  Mole',
      }),
    ).toEqual([
      { kind: 'email', message: 'email:eve@example.com' },
      { kind: 'phone', message: 'phone:442079460958' },
      { kind: 'name', message: 'name:mallory van mole' },
    ]);
    expect(digestMessages({ firstName: 'Only' })).toEqual([]);
  });

  it('match by kind: the same hash under another kind is no match', () => {
    const digest = { email: ['aa'], phone: [], name: ['bb'] };
    expect(matchesDigest([{ kind: 'email', hash: 'aa' }], digest)).toBe(true);
    expect(
      matchesDigest(
        [
          { kind: 'phone', hash: 'aa' },
          { kind: 'email', hash: 'bb' },
        ],
        digest,
      ),
    ).toBe(false);
  });
});
