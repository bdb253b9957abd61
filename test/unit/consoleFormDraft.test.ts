import { describe, expect, it } from 'vitest';
import { checkDraft, draftOf, moved, newField, refuseName, shownField } from '../../console/sites/formDraft';
import { consoleCatalogs } from '../../shared/src/messages/console';
import { wordsOf } from '../../shared/src/messages/translator';
import { defaultCheckinConfig } from '../../shared/src/schemas/sites';

const english = wordsOf(consoleCatalogs, 'en');

const start = () => draftOf({ siteId: 1, version: 1, ...defaultCheckinConfig });

describe('the form editor draft', () => {
  it('sends what was loaded unchanged, and a select with its options one per line', () => {
    const draft = start();
    expect(checkDraft(english, draft)).toEqual({ ok: true, body: defaultCheckinConfig });
    const select = {
      ...newField('visitType'),
      label: 'Visit type',
      type: 'select',
      required: true,
      optionsText: ' Meeting \n\nDelivery\n',
    };
    const checked = checkDraft(english, { ...draft, fields: [...draft.fields, select] });
    expect(checked.ok && checked.body.fields.at(-1)).toEqual({
      name: 'visitType',
      label: 'Visit type',
      type: 'select',
      required: true,
      options: ['Meeting', 'Delivery'],
    });
  });

  it('refuses in words, by field: a blank label, a select without options, a standard field as a checkbox', () => {
    const draft = start();
    const [first, last, email, company] = draft.fields;
    if (!first || !last || !email || !company) throw new Error('default form changed');
    const select = { ...newField('visitType'), type: 'select' };
    const checked = checkDraft(english, {
      ...draft,
      fields: [first, last, { ...email, label: ' ' }, { ...company, type: 'checkbox' }, select],
    });
    expect(checked.ok).toBe(false);
    if (checked.ok) return;
    expect(checked.errors.byField[email.key]).toBe('Give this field a label.');
    expect(checked.errors.byField[select.key]).toBe('Give at least one option, one per line.');
    expect(checked.errors.byField[company.key]).toBe('company holds text; it cannot be a checkbox');
  });

  it('keeps first and last name required text, and refuses a form without them', () => {
    const draft = start();
    const checked = checkDraft(english, {
      ...draft,
      fields: draft.fields.filter((field) => field.name !== 'lastName'),
    });
    expect(checked.ok).toBe(false);
    if (!checked.ok) expect(checked.errors.form).toEqual(['lastName must be a required text field']);
  });

  it('moves a field within the list only, and refuses a bad or taken name', () => {
    const draft = start();
    expect(moved(draft, 0, -1)).toBe(draft);
    expect(moved(draft, 3, 1)).toBe(draft);
    expect(moved(draft, 2, -1).fields.map((field) => field.name)).toEqual([
      'firstName',
      'email',
      'lastName',
      'company',
    ]);
    expect(refuseName(english, draft, 'email')).toBe('The form already has a field named email.');
    expect(refuseName(english, draft, '2fa')).toMatch(/^Use letters, digits and _/);
    expect(refuseName(english, draft, 'badgeNumber')).toBeNull();
    expect(newField('phone')).toMatchObject({ label: 'Phone', type: 'phone', required: false });
  });

  it('previews a type this console does not know as nothing, rather than as something else', () => {
    expect(shownField({ ...newField('x'), type: 'signature' })).toBeNull();
    expect(shownField({ ...newField('x'), label: '' })).toMatchObject({ label: 'x', type: 'text' });
  });
});
