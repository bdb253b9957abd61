import { beforeAll, describe, expect, it } from 'vitest';
import type { Problem } from '../../shared/src/schemas/common';
import type { PersonCheckin } from '../../shared/src/schemas/personCheckins';
import type { CheckinConfig, ConfigField } from '../../shared/src/schemas/sites';
import { apiClient } from '../support/http';
import { buildSite, buildToken, visitor } from '../support/factories';
import { serverAndWorld } from '../support/serverAndWorld';

const harness = serverAndWorld();

const configPath = (siteId: number) => `/v1/sites/${siteId}/checkins/people/config`;
const people = (siteId: number) => `/v1/sites/${siteId}/checkins/people`;

/** A site of its own for each test, so configuration changes never leak between tests. */
async function freshSite(): Promise<number> {
  return (await buildSite(harness.server, harness.world.accountId)).siteId;
}

const defaultFields: ConfigField[] = [
  { name: 'firstName', label: 'First name', type: 'text', required: true },
  { name: 'lastName', label: 'Last name', type: 'text', required: true },
  { name: 'email', label: 'Email', type: 'email', required: false },
  { name: 'company', label: 'Company', type: 'text', required: false },
];

function expectValidationFailed(response: { status: number; headers: Headers; body: Problem }): string[] {
  expect(response.status).toBe(422);
  expect(response.headers.get('content-type')).toMatch(/application\/problem\+json/);
  expect(response.body.code).toBe('VALIDATION_FAILED');
  const errors = response.body.errors ?? [];
  expect(errors.length).toBeGreaterThan(0);
  for (const error of errors) expect(error.message).toEqual(expect.any(String));
  return errors.map((error) => error.path);
}

describe('GET …/checkins/people/config', () => {
  it('returns the default configuration of a new site exactly, with ETag and Cache-Control', async () => {
    const siteId = await freshSite();
    const response = await harness.world.api.get<CheckinConfig>(configPath(siteId));
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/application\/json/);
    expect(response.body).toEqual({ siteId, version: 1, requiresApproval: false, fields: defaultFields });
    // Each field's keys in the documented order (docs/api.md), not jsonb's.
    expect(response.text).toContain('{"name":"firstName","label":"First name","type":"text","required":true}');
    expect(response.headers.get('etag')).toMatch(/^(W\/)?"[^"]+"$/);
    expect(response.headers.get('cache-control')).toBe('private, max-age=300');
  });

  it('answers 304 with no body to If-None-Match with the current ETag (and * or a list containing it)', async () => {
    const siteId = await freshSite();
    const first = await harness.world.api.get<CheckinConfig>(configPath(siteId));
    const etag = first.headers.get('etag') ?? '';
    for (const header of [etag, `"other", ${etag}`, '*']) {
      const cached = await harness.world.api.get(configPath(siteId), { headers: { 'If-None-Match': header } });
      expect(cached.status).toBe(304);
      expect(cached.text).toBe('');
      expect(cached.headers.get('etag')).toBe(etag);
    }
    const stale = await harness.world.api.get<CheckinConfig>(configPath(siteId), {
      headers: { 'If-None-Match': '"something-else"' },
    });
    expect(stale.status).toBe(200);
    expect(stale.body).toEqual(first.body);
  });

  it('needs checkins:read and a site the token can view', async () => {
    const siteId = await freshSite();
    const noRead = await buildToken(harness.server, {
      accountId: harness.world.accountId,
      allSites: true,
      scopes: ['checkins:write'],
    });
    const forbidden = await apiClient(harness.server.baseUrl, noRead.token).get<Problem>(configPath(siteId));
    expect(forbidden.status).toBe(403);
    expect(forbidden.body.code).toBe('INSUFFICIENT_SCOPE');
    const elsewhere = await buildToken(harness.server, {
      accountId: harness.world.accountId,
      siteIds: [harness.world.siteId],
    });
    const hidden = await apiClient(harness.server.baseUrl, elsewhere.token).get<Problem>(configPath(siteId));
    expect(hidden.status).toBe(404);
    expect(hidden.body.code).toBe('NOT_FOUND');
  });
});

describe('PUT …/checkins/people/config', () => {
  const withBadge: ConfigField[] = [
    ...defaultFields,
    { name: 'badgeNumber', label: 'Badge number', type: 'text', required: true },
  ];

  it('needs sites:configure (403 without it, the default scopes lack it)', async () => {
    const siteId = await freshSite();
    const token = await buildToken(harness.server, { accountId: harness.world.accountId, allSites: true });
    const response = await apiClient(harness.server.baseUrl, token.token).put<Problem>(configPath(siteId), {
      requiresApproval: true,
      fields: withBadge,
    });
    expect(response.status).toBe(403);
    expect(response.body.code).toBe('INSUFFICIENT_SCOPE');
    const unchanged = await harness.world.api.get<CheckinConfig>(configPath(siteId));
    expect(unchanged.body).toEqual({ siteId, version: 1, requiresApproval: false, fields: defaultFields });
  });

  it('replaces the configuration and returns it with a new ETag; the old ETag no longer gives 304', async () => {
    const siteId = await freshSite();
    const before = await harness.world.api.get<CheckinConfig>(configPath(siteId));
    const oldEtag = before.headers.get('etag') ?? '';

    const put = await harness.world.api.put<CheckinConfig>(configPath(siteId), {
      requiresApproval: true,
      fields: withBadge,
    });
    expect(put.status).toBe(200);
    expect(put.body).toEqual({ siteId, version: 2, requiresApproval: true, fields: withBadge });
    const newEtag = put.headers.get('etag') ?? '';
    expect(newEtag).toMatch(/^(W\/)?"[^"]+"$/);
    expect(newEtag).not.toBe(oldEtag);

    const revalidated = await harness.world.api.get<CheckinConfig>(configPath(siteId), {
      headers: { 'If-None-Match': oldEtag },
    });
    expect(revalidated.status).toBe(200);
    expect(revalidated.body).toEqual(put.body);
    expect(revalidated.headers.get('etag')).toBe(newEtag);
    const cached = await harness.world.api.get(configPath(siteId), { headers: { 'If-None-Match': newEtag } });
    expect(cached.status).toBe(304);

    // Dropping a field is a replacement too: the optional fields may go.
    const minimal = defaultFields.slice(0, 2);
    const replaced = await harness.world.api.put<CheckinConfig>(configPath(siteId), {
      requiresApproval: false,
      fields: minimal,
    });
    expect(replaced.body).toEqual({ siteId, version: 3, requiresApproval: false, fields: minimal });
    expect(replaced.headers.get('etag')).not.toBe(newEtag);
  });

  it('changes only its own site', async () => {
    const siteId = await freshSite();
    const other = await freshSite();
    await harness.world.api.put(configPath(siteId), { requiresApproval: true, fields: withBadge });
    const untouched = await harness.world.api.get<CheckinConfig>(configPath(other));
    expect(untouched.body).toEqual({ siteId: other, version: 1, requiresApproval: false, fields: defaultFields });
  });

  describe('refuses invalid configurations with 422 VALIDATION_FAILED and errors', () => {
    const cases: Array<[string, Record<string, unknown>, string]> = [
      [
        'dropping firstName',
        { requiresApproval: false, fields: defaultFields.filter((field) => field.name !== 'firstName') },
        'fields',
      ],
      [
        'making lastName optional',
        {
          requiresApproval: false,
          fields: defaultFields.map((field) => (field.name === 'lastName' ? { ...field, required: false } : field)),
        },
        'fields',
      ],
      [
        'making firstName an email field',
        {
          requiresApproval: false,
          fields: defaultFields.map((field) => (field.name === 'firstName' ? { ...field, type: 'email' } : field)),
        },
        'fields',
      ],
      [
        'a select without options',
        {
          requiresApproval: false,
          fields: [...defaultFields, { name: 'visitType', label: 'Visit type', type: 'select', required: true }],
        },
        'fields.4.options',
      ],
      [
        'a select with an empty options list',
        {
          requiresApproval: false,
          fields: [
            ...defaultFields,
            { name: 'visitType', label: 'Visit type', type: 'select', required: true, options: [] },
          ],
        },
        'fields.4.options',
      ],
      [
        'an unknown field property',
        {
          requiresApproval: false,
          fields: [
            ...defaultFields,
            { name: 'badge', label: 'Badge', type: 'text', required: false, placeholder: '17' },
          ],
        },
        'fields.4.placeholder',
      ],
      [
        'an unknown field type',
        {
          requiresApproval: false,
          fields: [...defaultFields, { name: 'photo', label: 'Photo', type: 'image', required: false }],
        },
        'fields.4.type',
      ],
      [
        'duplicate field names',
        {
          requiresApproval: false,
          fields: [...defaultFields, { name: 'email', label: 'Email again', type: 'email', required: true }],
        },
        'fields.4.name',
      ],
      [
        // No value could pass it (a standard field is text in the create body): a required one shuts the site.
        'a standard field (email) as a checkbox',
        {
          requiresApproval: false,
          fields: defaultFields.map((field) =>
            field.name === 'email' ? { ...field, type: 'checkbox', required: true } : field,
          ),
        },
        'fields.2.type',
      ],
      [
        'a standard field (purpose) as an optional checkbox',
        {
          requiresApproval: false,
          fields: [...defaultFields, { name: 'purpose', label: 'Business visit', type: 'checkbox', required: false }],
        },
        'fields.4.type',
      ],
      ['missing requiresApproval', { fields: defaultFields }, 'requiresApproval'],
      ['missing fields', { requiresApproval: false }, 'fields'],
      ['an unknown top-level property', { requiresApproval: false, fields: defaultFields, theme: 'dark' }, 'theme'],
    ];

    it.each(cases)('%s', async (_name, body, path) => {
      const siteId = await freshSite();
      const response = await harness.world.api.put<Problem>(configPath(siteId), body);
      const paths = expectValidationFailed(response);
      expect(paths).toContain(path);
      const unchanged = await harness.world.api.get<CheckinConfig>(configPath(siteId));
      expect(unchanged.body.fields).toEqual(defaultFields);
    });
  });
});

describe('custom fields named like what every JavaScript object inherits', () => {
  it('constructor, toString and valueOf are fields like any other: absent when not sent, taken as sent', async () => {
    const siteId = await freshSite();
    const fields: ConfigField[] = [
      ...defaultFields.filter((field) => field.name === 'firstName' || field.name === 'lastName'),
      { name: 'constructor', label: 'Builder', type: 'text', required: false },
      { name: 'toString', label: 'Badge', type: 'text', required: false },
      { name: 'valueOf', label: 'Agreed', type: 'checkbox', required: false },
    ];
    expect((await harness.world.api.put(configPath(siteId), { requiresApproval: false, fields })).status).toBe(200);
    const none = await harness.world.api.post<PersonCheckin>(people(siteId), visitor('No', 'Custom'));
    expect(none.status).toBe(201);
    const some = await harness.world.api.post<PersonCheckin>(
      people(siteId),
      visitor('Some', 'Custom', { customFields: { toString: '42' } }),
    );
    expect(some.status).toBe(201);
    const all = await harness.world.api.post<PersonCheckin>(
      people(siteId),
      visitor('All', 'Custom', {
        customFields: { constructor: 'Bob', toString: '7', valueOf: true },
      }),
    );
    expect(all.status).toBe(201);
    expect(all.body.customFields).toEqual({ constructor: 'Bob', toString: '7', valueOf: true });
  });
});

describe('a create is validated against the site configuration', () => {
  const fields: ConfigField[] = [
    { name: 'firstName', label: 'First name', type: 'text', required: true },
    { name: 'lastName', label: 'Last name', type: 'text', required: true },
    { name: 'email', label: 'Email', type: 'email', required: false },
    { name: 'phone', label: 'Phone', type: 'phone', required: false },
    { name: 'hostName', label: 'Host', type: 'text', required: true },
    { name: 'badgeNumber', label: 'Badge number', type: 'text', required: true },
    { name: 'safetyBriefing', label: 'I read the safety briefing', type: 'checkbox', required: true },
    { name: 'visitType', label: 'Visit type', type: 'select', required: true, options: ['Meeting', 'Delivery'] },
    { name: 'parking', label: 'Parking spot', type: 'text', required: false },
  ];
  const valid = {
    person: { firstName: 'Ada', lastName: 'Lovelace', email: 'ada@example.com' },
    hostName: 'Grace',
    customFields: { badgeNumber: '17', safetyBriefing: true, visitType: 'Meeting' },
  };
  let siteId: number;

  beforeAll(async () => {
    siteId = await freshSite();
    const put = await harness.world.api.put(configPath(siteId), { requiresApproval: false, fields });
    expect(put.status).toBe(200);
  });

  const create = (body: unknown) => harness.world.api.post<Problem>(people(siteId), body);
  const withCustom = (customFields: Record<string, string | boolean>) => ({ ...valid, customFields });

  it('a required custom text field missing (or empty) → customFields.badgeNumber', async () => {
    expect(expectValidationFailed(await create(withCustom({ safetyBriefing: true, visitType: 'Meeting' })))).toEqual([
      'customFields.badgeNumber',
    ]);
    expect(
      expectValidationFailed(await create(withCustom({ badgeNumber: '', safetyBriefing: true, visitType: 'Meeting' }))),
    ).toEqual(['customFields.badgeNumber']);
  });

  it('a required checkbox not true → customFields.safetyBriefing', async () => {
    const variants: Array<Record<string, string | boolean>> = [
      { badgeNumber: '17', safetyBriefing: false, visitType: 'Meeting' },
      { badgeNumber: '17', visitType: 'Meeting' },
      { badgeNumber: '17', safetyBriefing: 'yes', visitType: 'Meeting' },
    ];
    for (const customFields of variants) {
      expect(expectValidationFailed(await create(withCustom(customFields)))).toEqual(['customFields.safetyBriefing']);
    }
  });

  it('a select value not among its options → customFields.visitType', async () => {
    for (const visitType of ['Party', 'meeting']) {
      const paths = expectValidationFailed(
        await create(withCustom({ badgeNumber: '17', safetyBriefing: true, visitType })),
      );
      expect(paths).toEqual(['customFields.visitType']);
    }
  });

  it('an email field with a bad email → person.email', async () => {
    for (const email of ['not-an-email', 'ada@', 'ada example.com']) {
      const paths = expectValidationFailed(await create({ ...valid, person: { ...valid.person, email } }));
      expect(paths).toEqual(['person.email']);
    }
  });

  it('a phone field with a bad phone → person.phone', async () => {
    const paths = expectValidationFailed(await create({ ...valid, person: { ...valid.person, phone: 'call me' } }));
    expect(paths).toEqual(['person.phone']);
  });

  it('a custom field the site does not have → customFields.<name>', async () => {
    const paths = expectValidationFailed(await create(withCustom({ ...valid.customFields, shoeSize: '42' })));
    expect(paths).toEqual(['customFields.shoeSize']);
  });

  it('a standard field sent as a custom field is refused', async () => {
    const paths = expectValidationFailed(await create(withCustom({ ...valid.customFields, company: 'ACME' })));
    expect(paths).toEqual(['customFields.company']);
  });

  it('missing firstName → person.firstName; a missing required standard field → its path', async () => {
    expect(expectValidationFailed(await create({ ...valid, person: { lastName: 'Lovelace' } }))).toEqual([
      'person.firstName',
    ]);
    const { hostName: _hostName, ...withoutHost } = valid;
    expect(expectValidationFailed(await create(withoutHost))).toEqual(['hostName']);
  });

  it('lists every problem of one request, each by its path', async () => {
    const response = await create({
      person: { lastName: 'Lovelace', email: 'nope' },
      customFields: { safetyBriefing: false, visitType: 'Party', shoeSize: '42' },
    });
    const paths = expectValidationFailed(response);
    expect([...paths].sort()).toEqual(
      [
        'person.firstName',
        'person.email',
        'hostName',
        'customFields.badgeNumber',
        'customFields.safetyBriefing',
        'customFields.visitType',
        'customFields.shoeSize',
      ].sort(),
    );
    const list = await harness.world.api.get<{ data: PersonCheckin[] }>(people(siteId));
    expect(list.body.data).toEqual([]);
  });

  it('a valid create stores the custom fields in customFields', async () => {
    const body = {
      ...valid,
      person: { ...valid.person, phone: '+44 20 7946 0000' },
      customFields: { ...valid.customFields, parking: 'B12' },
    };
    const response = await harness.world.api.post<PersonCheckin>(people(siteId), body);
    expect(response.status).toBe(201);
    expect(response.body).toMatchObject({
      siteId,
      status: 'IN',
      hostName: 'Grace',
      person: { firstName: 'Ada', lastName: 'Lovelace', email: 'ada@example.com', phone: '+44 20 7946 0000' },
      customFields: { badgeNumber: '17', safetyBriefing: true, visitType: 'Meeting', parking: 'B12' },
    });
    const read = await harness.world.api.get<PersonCheckin>(`${people(siteId)}/${response.body.checkinId}`);
    expect(read.body.customFields).toEqual({
      badgeNumber: '17',
      safetyBriefing: true,
      visitType: 'Meeting',
      parking: 'B12',
    });
  });

  it('an optional field may be left out, and a site with the default configuration needs only the name', async () => {
    const { parking: _parking, ...customFields } = { ...valid.customFields, parking: 'x' };
    expect((await harness.world.api.post(people(siteId), withCustom(customFields))).status).toBe(201);
    const plain = await freshSite();
    const created = await harness.world.api.post<PersonCheckin>(people(plain), visitor('Bare', 'Minimum'));
    expect(created.status).toBe(201);
    expect(created.body.customFields).toEqual({});
    const custom = await harness.world.api.post<Problem>(
      people(plain),
      visitor('Bare', 'Custom', { customFields: { badgeNumber: '1' } }),
    );
    expect(expectValidationFailed(custom)).toEqual(['customFields.badgeNumber']);
  });

  it('a body that sends entry is a 422', async () => {
    for (const entry of [{ source: 'KIOSK' }, { source: 'API', at: new Date().toISOString() }]) {
      const response = await create({ ...valid, entry });
      expectValidationFailed(response);
      expect(JSON.stringify(response.body.errors)).toContain('entry');
    }
  });

  it('uses the configuration as it is now: a PUT applies to the very next create', async () => {
    const site = await freshSite();
    expect((await harness.world.api.post(people(site), visitor('Before', 'Change'))).status).toBe(201);
    await harness.world.api.put(configPath(site), {
      requiresApproval: false,
      fields: [...defaultFields, { name: 'badgeNumber', label: 'Badge number', type: 'text', required: true }],
    });
    const refused = await harness.world.api.post<Problem>(people(site), visitor('After', 'Change'));
    expect(expectValidationFailed(refused)).toEqual(['customFields.badgeNumber']);
  });
});
