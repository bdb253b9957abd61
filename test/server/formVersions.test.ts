import { describe, expect, it } from 'vitest';
import type { Alert } from '../../shared/src/schemas/alerts';
import type { Problem } from '../../shared/src/schemas/common';
import type { PersonCheckin } from '../../shared/src/schemas/personCheckins';
import { type CheckinConfig, type ConfigField, defaultCheckinConfig } from '../../shared/src/schemas/sites';
import { buildSite, visitor } from '../support/factories';
import { serverAndWorld } from '../support/serverAndWorld';
import { staffClient } from '../support/staff';

const harness = serverAndWorld();

const configPath = (siteId: number) => `/v1/sites/${siteId}/checkins/people/config`;
const people = (siteId: number) => `/v1/sites/${siteId}/checkins/people`;
const field = (name: string, label: string, required = true): ConfigField => ({ name, label, type: 'text', required });
const withFields = (...more: ConfigField[]) => ({
  requiresApproval: false,
  fields: [...defaultCheckinConfig.fields.filter((item) => item.name !== 'company'), ...more],
});
const companyRequired = withFields(field('company', 'Company'));

async function freshSite(): Promise<number> {
  return (await buildSite(harness.server, harness.world.accountId)).siteId;
}

async function putForm(siteId: number, form: { requiresApproval: boolean; fields: ConfigField[] }) {
  const response = await harness.world.api.put<CheckinConfig>(configPath(siteId), form);
  expect(response.status).toBe(200);
  return response;
}

/** The site's alerts of one kind, as reception reads them. */
async function alertsOf(siteId: number, kind: string): Promise<Alert[]> {
  const { api } = await staffClient(harness.server, {
    accountId: harness.world.accountId,
    role: 'reception',
    siteIds: [siteId],
  });
  const listed = await api.get<{ data: Alert[] }>('/v1/alerts?limit=200');
  expect(listed.status).toBe(200);
  return listed.body.data.filter((alert) => alert.kind === kind);
}

describe('the form’s version', () => {
  it('starts at 1, moves on by one with every PUT, and its ETag still answers 304', async () => {
    const siteId = await freshSite();
    const first = await harness.world.api.get<CheckinConfig>(configPath(siteId));
    expect(first.body).toMatchObject({ siteId, version: 1 });
    const put = await putForm(siteId, companyRequired);
    expect(put.body.version).toBe(2);
    expect((await putForm(siteId, withFields())).body.version).toBe(3);
    const now = await harness.world.api.get<CheckinConfig>(configPath(siteId));
    expect(now.body.version).toBe(3);
    const etag = now.headers.get('etag') ?? '';
    expect(etag).not.toBe(first.headers.get('etag'));
    expect((await harness.world.api.get(configPath(siteId), { headers: { 'If-None-Match': etag } })).status).toBe(304);
  });
});

describe('a create naming its form version', () => {
  it('on an older form it met: 201 with incompleteFields, and reception gets an alert saying what is missing', async () => {
    const siteId = await freshSite();
    await putForm(siteId, companyRequired);
    const created = await harness.world.api.post<PersonCheckin>(
      people(siteId),
      visitor('Ada', 'Behind', { formVersion: 1 }),
    );
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ status: 'IN', incompleteFields: ['company'] });
    const read = await harness.world.api.get<PersonCheckin>(`${people(siteId)}/${created.body.checkinId}`);
    expect(read.body.incompleteFields).toEqual(['company']);

    const alerts = await alertsOf(siteId, 'form');
    expect(alerts).toEqual([
      expect.objectContaining({
        kind: 'form',
        checkinId: created.body.checkinId,
        siteId,
        subject: 'Ada Behind',
        source: 'olderForm',
        reason: 'Checked in with an older form: Company missing',
        acknowledgedAt: null,
      }),
    ]);
    const acknowledged = await harness.world.api.post<Alert>(`/v1/alerts/form/${created.body.checkinId}/acknowledge`);
    // The integrator token has no alerts:manage; reception acknowledges.
    expect(acknowledged.status).toBe(403);
    const { api } = await staffClient(harness.server, {
      accountId: harness.world.accountId,
      role: 'reception',
      siteIds: [siteId],
    });
    const ack = await api.post<Alert>(`/v1/alerts/form/${created.body.checkinId}/acknowledge`);
    expect(ack.status).toBe(200);
    expect(ack.body).toMatchObject({ kind: 'form', acknowledgedBy: { type: 'user' } });
  });

  it('keeps every version: a form two changes old is the one checked, each change adding its own fields', async () => {
    const siteId = await freshSite();
    await putForm(siteId, withFields(field('hostName', 'Host')));
    await putForm(siteId, withFields(field('hostName', 'Host'), field('company', 'Company'), field('badge', 'Badge')));
    // Version 1 asked neither: all three are missing now.
    const fromFirst = await harness.world.api.post<PersonCheckin>(
      people(siteId),
      visitor('Bo', 'One', { formVersion: 1 }),
    );
    expect(fromFirst.status).toBe(201);
    expect(fromFirst.body.incompleteFields).toEqual(['hostName', 'company', 'badge']);
    // Version 2 asked for the host: without it, the body does not meet the form it was made on.
    const fromSecond = await harness.world.api.post<Problem>(people(siteId), visitor('Cy', 'Two', { formVersion: 2 }));
    expect(fromSecond.status).toBe(422);
    expect(fromSecond.body.errors).toEqual([{ path: 'hostName', message: 'Host is required' }]);
    const metSecond = await harness.world.api.post<PersonCheckin>(
      people(siteId),
      visitor('Cy', 'Two', { formVersion: 2, hostName: 'Grace' }),
    );
    expect(metSecond.body.incompleteFields).toEqual(['company', 'badge']);
    const reasons = (await alertsOf(siteId, 'form')).map((alert) => alert.reason).sort();
    expect(reasons).toEqual([
      'Checked in with an older form: Company, Badge missing',
      'Checked in with an older form: Host, Company, Badge missing',
    ]);
  });

  it('without formVersion, or naming the current version, the current form is required (422)', async () => {
    const siteId = await freshSite();
    const put = await putForm(siteId, companyRequired);
    for (const body of [visitor('Di', 'Strict'), visitor('Di', 'Strict', { formVersion: put.body.version })]) {
      const refused = await harness.world.api.post<Problem>(people(siteId), body);
      expect(refused.status).toBe(422);
      expect(refused.body.errors).toEqual([{ path: 'person.company', message: 'Company is required' }]);
    }
    expect(await alertsOf(siteId, 'form')).toEqual([]);
  });

  it('a body that meets the current form too carries no incompleteFields and raises no alert', async () => {
    const siteId = await freshSite();
    await putForm(siteId, companyRequired);
    const created = await harness.world.api.post<PersonCheckin>(
      people(siteId),
      visitor('Eve', 'Complete', {
        person: { firstName: 'Eve', lastName: 'Complete', company: 'ACME' },
        formVersion: 1,
      }),
    );
    expect(created.status).toBe(201);
    expect(created.body).not.toHaveProperty('incompleteFields');
    expect(await alertsOf(siteId, 'form')).toEqual([]);
  });

  it('a version the site never had is a 422 on formVersion', async () => {
    const siteId = await freshSite();
    for (const formVersion of [2, 99]) {
      const refused = await harness.world.api.post<Problem>(people(siteId), visitor('Fay', 'Future', { formVersion }));
      expect(refused.status).toBe(422);
      expect(refused.body.code).toBe('VALIDATION_FAILED');
      expect(refused.body.errors).toEqual([
        {
          path: 'formVersion',
          message: `Site ${siteId} has no form version ${formVersion} (its form is at version 1)`,
        },
      ]);
    }
    for (const formVersion of [0, -1, 1.5, '1']) {
      expect((await harness.world.api.post(people(siteId), visitor('Fay', 'Bad', { formVersion }))).status).toBe(422);
    }
  });

  it('a replay of an accepted older-form check-in adds no second check-in and no second alert', async () => {
    const siteId = await freshSite();
    await putForm(siteId, companyRequired);
    const body = visitor('Gus', 'Twice', { formVersion: 1 });
    const first = await harness.world.api.post<PersonCheckin>(people(siteId), body, { idempotencyKey: 'older-form-1' });
    const again = await harness.world.api.post<PersonCheckin>(people(siteId), body, { idempotencyKey: 'older-form-1' });
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.body).toEqual(first.body);
    expect(await alertsOf(siteId, 'form')).toHaveLength(1);
  });

  it('the OpenAPI document says version, formVersion and incompleteFields', async () => {
    const doc = await harness.world.api.get<{
      components: { schemas: Record<string, { properties: Record<string, { description?: string }> }> };
    }>('/v1/openapi.json');
    const { schemas } = doc.body.components;
    expect(schemas.CheckinConfig?.properties.version?.description).toContain('every change');
    expect(schemas.CreateCheckinRequest?.properties.formVersion?.description).toContain('incompleteFields');
    expect(schemas.PersonCheckin?.properties.incompleteFields?.description).toContain('older version');
    expect(JSON.stringify(doc.body)).toContain('kioskRefused');
  });
});
