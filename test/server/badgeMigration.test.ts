import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { up } from '../../server/src/db/migrations/0029_badges';
import type { PersonCheckin } from '../../shared/src/schemas/personCheckins';
import type { Site } from '../../shared/src/schemas/sites';
import { buildWorld, visitor } from '../support/factories';
import { runMigration } from '../support/migration';
import { type TestServer, startTestServer } from '../support/testServer';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => server?.close());

describe('migration 0029 (badges)', () => {
  it('gives every visit still on site a badge code of its own, none to visits that ended, and turns no site’s badges on', async () => {
    const world = await buildWorld(server);
    const people = `/v1/sites/${world.siteId}/checkins/people`;
    const inside = (await world.api.post<PersonCheckin>(people, visitor('In', 'Side'))).body;
    const another = (await world.api.post<PersonCheckin>(people, visitor('Also', 'Inside'))).body;
    const left = (await world.api.post<PersonCheckin>(people, visitor('Left', 'Early'))).body;
    await world.api.patch(`${people}/${left.checkinId}`, {});
    // The database as it was before: no badge settings, no badge codes.
    await server.sequelize.query(
      'ALTER TABLE sites DROP COLUMN badge_enabled, DROP COLUMN badge_size; ALTER TABLE person_checkins DROP COLUMN badge_code',
    );

    expect(await runMigration(server.sequelize, up)).toEqual([]);

    const read = async (checkin: PersonCheckin) =>
      (await world.api.get<PersonCheckin>(`${people}/${checkin.checkinId}`)).body.badgeCode;
    const codes = [await read(inside), await read(another)];
    for (const code of codes) expect(code).toMatch(/^[A-Za-z0-9_-]{22}$/);
    expect(new Set(codes).size).toBe(2);
    expect(await read(left)).toBeNull();
    expect((await world.api.get<Site>(`/v1/sites/${world.siteId}`)).body.badge).toEqual({
      enabled: false,
      size: '62x100',
    });
    await world.api.patch(`/v1/sites/${world.siteId}`, { badge: { enabled: true } });
    const badge = await fetch(`${server.baseUrl}${people}/${inside.checkinId}/badge.pdf`, {
      headers: { Authorization: `Bearer ${world.token}` },
    });
    expect(badge.status).toBe(200);
    expect(Buffer.from(await badge.arrayBuffer()).toString('latin1', 0, 5)).toBe('%PDF-');
  });
});
