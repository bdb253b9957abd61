import { describe, expect, it } from 'vitest';
import { up } from '../../server/src/db/migrations/0012_standard_field_types';
import { queryOne } from '../../server/src/db/query';
import { type ConfigField, defaultCheckinConfig } from '../../shared/src/schemas/sites';
import { runMigration } from '../support/migration';
import { serverAndWorld } from '../support/serverAndWorld';
import { sql } from '../../server/src/db/sql';

const harness = serverAndWorld();
const db = () => harness.server.database;
const people = (siteId: number) => `/v1/sites/${siteId}/checkins/people`;
const config = (siteId: number) => `${people(siteId)}/config`;

/** A form as one could be saved before `PUT …/config` refused a checkbox standard field (straight into the row). */
async function saveOldForm(siteId: number, fields: ConfigField[]): Promise<void> {
  await queryOne(
    db(),
    sql`UPDATE sites SET checkin_config = ${JSON.stringify({ requiresApproval: false, fields })} WHERE account_id = ${harness.world.accountId} AND id = ${siteId}`,
  );
}

/** The form as the API serves it, and its ETag (which the kiosk's cached copy is checked against). */
async function formOf(
  siteId: number,
): Promise<{ requiresApproval: boolean; fields: ConfigField[]; etag: string | null }> {
  const response = await harness.world.api.get<{ requiresApproval: boolean; fields: ConfigField[] }>(config(siteId));
  return {
    requiresApproval: response.body.requiresApproval,
    fields: response.body.fields,
    etag: response.headers.get('ETag'),
  };
}

describe('migration 0012: standard fields saved as checkboxes', () => {
  it('turns each into a text field with its label and required flag, moves the form version (its ETag) on, and names the site; other forms are left alone', async () => {
    const { api, siteId, otherSiteId } = harness.world;
    const custom: ConfigField = {
      name: 'safetyBriefing',
      label: 'Safety briefing read',
      type: 'checkbox',
      required: true,
    };
    await saveOldForm(siteId, [
      ...defaultCheckinConfig.fields.filter((field) => field.name !== 'company'),
      { name: 'company', label: 'Company', type: 'checkbox', required: true },
      { name: 'purpose', label: 'Purpose', type: 'checkbox', required: false },
      custom,
    ]);
    const untouched = await formOf(otherSiteId);
    // Broken before: no value can fill a checkbox company (the request's company is text).
    const visitor = {
      person: { firstName: 'Ada', lastName: 'Form', company: 'Acme' },
      purpose: 'Audit',
      customFields: { safetyBriefing: true },
    };
    expect((await api.post(people(siteId), visitor)).status).toBe(422);
    const before = await formOf(siteId);

    const warnings = await runMigration(harness.server.database, up);

    expect(warnings.map((warning) => warning.fields)).toEqual([{ siteId, accountId: harness.world.accountId }]);
    const after = await formOf(siteId);
    expect(after.etag).not.toBe(before.etag);
    expect(after.fields).toEqual([
      ...defaultCheckinConfig.fields.filter((field) => field.name !== 'company'),
      { name: 'company', label: 'Company', type: 'text', required: true },
      { name: 'purpose', label: 'Purpose', type: 'text', required: false },
      custom,
    ]);
    expect(await formOf(otherSiteId)).toEqual(untouched);
    const created = await api.post<{ person: { company: string }; purpose: string }>(people(siteId), visitor);
    expect(created.status, created.text).toBe(201);
    expect(created.body).toMatchObject({ person: { company: 'Acme' }, purpose: 'Audit' });
    // The form as it is now can be saved back as it was read.
    expect(
      (await api.put(config(siteId), { requiresApproval: after.requiresApproval, fields: after.fields })).status,
    ).toBe(200);

    // Run again (a migration stopped half-way is run again): nothing left to change.
    expect(await runMigration(harness.server.database, up)).toEqual([]);
  });
});
