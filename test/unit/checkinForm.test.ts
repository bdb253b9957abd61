import { describe, expect, it } from 'vitest';
import { validateCheckinForm } from '../../shared/src/domain/checkinForm';
import { type ConfigField, defaultCheckinConfig } from '../../shared/src/schemas/sites';

const fields: ConfigField[] = [
  ...defaultCheckinConfig.fields,
  { name: 'hostName', label: 'Host', type: 'text', required: true },
  { name: 'phone', label: 'Phone', type: 'phone', required: false },
  { name: 'badge', label: 'Badge', type: 'text', required: true },
  { name: 'visitType', label: 'Visit type', type: 'select', required: false, options: ['Meeting', 'Delivery'] },
  { name: 'nda', label: 'NDA', type: 'checkbox', required: true },
];

const valid = {
  person: { firstName: 'Ada', lastName: 'Lovelace', email: 'ada@example.com', phone: '+44 20 1234' },
  hostName: 'Grace',
  customFields: { badge: '17', visitType: 'Meeting', nda: true },
};

describe('a check-in against its site configuration', () => {
  it('passes when every required field is there and every value fits its type', () => {
    expect(validateCheckinForm(fields, valid)).toEqual([]);
  });

  it('names each problem by the path where the value lives', () => {
    const errors = validateCheckinForm(fields, {
      person: { firstName: '', email: 'not-an-email', phone: 'call me' },
      customFields: { visitType: 'Party', nda: false, shoeSize: '42', company: 'ACME' },
    });
    expect(errors.map((error) => error.path).sort()).toEqual(
      [
        'person.firstName',
        'person.lastName',
        'person.email',
        'person.phone',
        'hostName',
        'customFields.badge',
        'customFields.visitType',
        'customFields.nda',
        'customFields.shoeSize',
        'customFields.company',
      ].sort(),
    );
    expect(errors.find((error) => error.path === 'customFields.nda')?.message).toBe('NDA must be accepted');
  });

  it('lets optional fields be left out, but a checkbox must be a boolean when sent', () => {
    const minimal = {
      person: { firstName: 'A', lastName: 'B' },
      hostName: 'H',
      customFields: { badge: '1', nda: true },
    };
    expect(validateCheckinForm(fields, minimal)).toEqual([]);
    const wrong = { ...minimal, customFields: { badge: '1', nda: 'yes' } };
    expect(validateCheckinForm(fields, wrong).map((error) => error.path)).toEqual(['customFields.nda']);
  });
});
