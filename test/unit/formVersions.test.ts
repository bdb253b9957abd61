import { describe, expect, it } from 'vitest';
import { checkOlderForm, olderFormAlertText } from '../../shared/src/domain/formVersions';
import { type ConfigField, defaultCheckinConfig } from '../../shared/src/schemas/sites';

const older: ConfigField[] = [
  ...defaultCheckinConfig.fields,
  { name: 'purpose', label: 'Purpose', type: 'text', required: false },
  { name: 'badge', label: 'Badge', type: 'text', required: false },
];
const current: ConfigField[] = [
  { name: 'firstName', label: 'First name', type: 'text', required: true },
  { name: 'lastName', label: 'Last name', type: 'text', required: true },
  { name: 'company', label: 'Company', type: 'text', required: true },
  { name: 'hostName', label: 'Host', type: 'text', required: true },
  { name: 'purpose', label: 'Purpose', type: 'select', required: false, options: ['Meeting', 'Delivery'] },
  { name: 'nda', label: 'NDA', type: 'checkbox', required: true },
];

describe('a check-in made on an older version of the form', () => {
  it('is refused with the older form’s own errors when it does not meet the form it was made on', () => {
    const verdict = checkOlderForm(older, current, { person: { firstName: 'Ada' } });
    expect(verdict).toEqual({ ok: false, errors: [{ path: 'person.lastName', message: 'Last name is required' }] });
  });

  it('is accepted when it meets that form, listing every current field it does not meet, in the form’s order', () => {
    const verdict = checkOlderForm(older, current, {
      person: { firstName: 'Ada', lastName: 'Lovelace' },
      purpose: 'Lunch',
      customFields: { badge: '17' },
    });
    expect(verdict).toEqual({
      ok: true,
      incomplete: [
        { name: 'company', label: 'Company', missing: true, message: 'Company is required' },
        { name: 'hostName', label: 'Host', missing: true, message: 'Host is required' },
        { name: 'purpose', label: 'Purpose', missing: false, message: 'Purpose must be one of: Meeting, Delivery' },
        { name: 'nda', label: 'NDA', missing: true, message: 'NDA must be accepted' },
      ],
    });
    if (!verdict.ok) return;
    expect(olderFormAlertText(verdict.incomplete)).toBe(
      'Checked in with an older form: Company, Host, NDA missing; Purpose must be one of: Meeting, Delivery',
    );
  });

  it('lists nothing when it meets the current form too (a custom field the current one dropped is kept, not refused)', () => {
    const verdict = checkOlderForm(older, defaultCheckinConfig.fields, {
      person: { firstName: 'Ada', lastName: 'Lovelace', company: 'ACME' },
      customFields: { badge: '17' },
    });
    expect(verdict).toEqual({ ok: true, incomplete: [] });
  });

  it('says it as the issue does for one missing field', () => {
    expect(
      olderFormAlertText([{ name: 'company', label: 'Company', missing: true, message: 'Company is required' }]),
    ).toBe('Checked in with an older form: Company missing');
  });
});
