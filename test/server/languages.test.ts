import { describe, expect, it } from 'vitest';
import type { Problem } from '../../shared/src/schemas/common';
import type { PersonCheckin } from '../../shared/src/schemas/personCheckins';
import type { Site } from '../../shared/src/schemas/sites';
import { visitor } from '../support/factories';
import { serverAndWorld } from '../support/serverAndWorld';
import { staffClient } from '../support/staff';

const harness = serverAndWorld({ env: { SIGNIN_FAILURES_PER_ADDRESS: '1000' }, worldPerTest: true });
const people = (siteId: number) => `/v1/sites/${siteId}/checkins/people`;

describe("a site's default language", () => {
  it('is English on a new site; an owner picks another at creation, a manager changes it; nothing else is taken', async () => {
    const { world, server } = harness;
    expect((await world.api.get<Site>(`/v1/sites/${world.siteId}`)).body.defaultLanguage).toBe('en');
    const { api: owner } = await staffClient(server, { accountId: world.accountId, role: 'owner' });
    const created = await owner.post<Site>('/v1/sites', { name: 'Zweigstelle', defaultLanguage: 'de' });
    expect(created.status, created.text).toBe(201);
    expect(created.body.defaultLanguage).toBe('de');

    const { api: manager } = await staffClient(server, {
      accountId: world.accountId,
      role: 'manager',
      siteIds: [world.siteId],
    });
    const changed = await manager.patch<Site>(`/v1/sites/${world.siteId}`, { defaultLanguage: 'ar' });
    expect(changed.status, changed.text).toBe(200);
    expect(changed.body.defaultLanguage).toBe('ar');
    const listed = await world.api.get<{ data: Site[] }>('/v1/sites');
    expect(listed.body.data.find((site) => site.siteId === world.siteId)?.defaultLanguage).toBe('ar');

    // Portuguese and Traditional Chinese are not (yet) spoken; a tag with a region is not a code.
    for (const wrong of ['pt', 'zh-Hant', 'de-DE', '']) {
      const refused = await manager.patch<Problem>(`/v1/sites/${world.siteId}`, { defaultLanguage: wrong });
      expect(refused.status, wrong).toBe(422);
      expect(refused.body.errors?.[0]?.path).toBe('defaultLanguage');
    }
    expect((await world.api.get<Site>(`/v1/sites/${world.siteId}`)).body.defaultLanguage).toBe('ar');
  });
});

describe("a check-in's language", () => {
  it("is kept as the visitor's, null when the create named none, and refused when unknown", async () => {
    const { world } = harness;
    const chinese = await world.api.post<PersonCheckin>(
      people(world.siteId),
      visitor('小明', '王', { language: 'zh' }),
    );
    expect(chinese.status, chinese.text).toBe(201);
    expect(chinese.body.language).toBe('zh');
    const read = await world.api.get<PersonCheckin>(`${people(world.siteId)}/${chinese.body.checkinId}`);
    expect(read.body.language).toBe('zh');

    const none = await world.api.post<PersonCheckin>(people(world.siteId), visitor('Ada', 'Lovelace'));
    expect(none.body.language).toBeNull();

    const unknown = await world.api.post<Problem>(people(world.siteId), visitor('Bo', 'Ek', { language: 'sv' }));
    expect(unknown.status).toBe(422);
    expect(unknown.body.errors?.[0]?.path).toBe('language');
  });
});
