import { describe, expect, it } from 'vitest';
import { fieldMaxLength, validateCheckinForm } from '../../shared/src/domain/checkinForm';
import { type ConfigField, defaultCheckinConfig } from '../../shared/src/schemas/sites';

// A value longer than the server accepts is named in a sentence by the form, before anything is queued,
// with the same limits the create request has (the server refuses those itself first).

const fields: ConfigField[] = [
  ...defaultCheckinConfig.fields,
  { name: 'hostName', label: 'Who are you visiting?', type: 'text', required: false },
  { name: 'badge', label: 'Badge', type: 'text', required: false },
];

describe('how long a check-in value may be', () => {
  it('has the limits of the create request, for every standard field and for custom ones', () => {
    const limits = ['firstName', 'lastName', 'email', 'phone', 'company', 'hostName', 'purpose', 'badge'].map(
      (name) => [name, fieldMaxLength(name)],
    );
    expect(Object.fromEntries(limits)).toEqual({
      firstName: 100,
      lastName: 100,
      email: 254,
      phone: 40,
      company: 200,
      hostName: 200,
      purpose: 500,
      badge: 1000,
    });
  });

  it('says in words which value is too long and how long it may be', () => {
    const errors = validateCheckinForm(fields, {
      person: { firstName: 'A'.repeat(101), lastName: 'Lovelace', email: `${'a'.repeat(250)}@example.com` },
      hostName: 'G'.repeat(201),
      customFields: { badge: '7'.repeat(1001) },
    });
    expect(errors).toEqual([
      { path: 'person.firstName', message: 'First name can be at most 100 characters' },
      // Too long comes before malformed: a shorter email could still be right.
      { path: 'person.email', message: 'Email can be at most 254 characters' },
      { path: 'hostName', message: 'Who are you visiting? can be at most 200 characters' },
      { path: 'customFields.badge', message: 'Badge can be at most 1000 characters' },
    ]);
  });

  it('takes a value at its limit, and does not count the spaces around it', () => {
    const errors = validateCheckinForm(fields, {
      person: { firstName: ` ${'A'.repeat(100)} `, lastName: 'L'.repeat(100) },
    });
    expect(errors).toEqual([]);
  });
});
