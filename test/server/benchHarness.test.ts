import { afterAll, describe, expect, it } from 'vitest';
import { createDatabase } from '../../server/src/db/database';
import { queryOne } from '../../server/src/db/query';
import { recordCreate, replayCreates } from '../../bench/dbCeiling';
import { mergeResults, runClosedLoop } from '../../bench/load';
import { createTestDatabase } from '../support/database';
import { buildWorld } from '../support/factories';
import { sql } from '../../server/src/db/sql';

const databaseUrl = await createTestDatabase();
const database = createDatabase({ url: databaseUrl, poolMax: 2 });
afterAll(() => database.close());

const checkins = async () =>
  (await queryOne<{ count: number }>(database, sql`SELECT count(*)::int AS count FROM person_checkins`))?.count ?? 0;

describe('the benchmark harness (npm run bench)', () => {
  it('replays the SQL of a create (recorded from the real app) as creates of their own: the database ceiling is real work', async () => {
    const world = await buildWorld({ database, baseUrl: '' });
    const input = {
      databaseUrl,
      path: `/v1/sites/${world.siteId}/checkins/people`,
      token: world.token,
      body: JSON.stringify({ person: { firstName: 'Ceiling', lastName: 'Bench' } }),
    };
    for (const key of [undefined, 'ceiling-test-key']) {
      const recorded = await recordCreate({ ...input, key });
      // One statement, the caller's check in it: what the API sends PostgreSQL per create by a known token.
      expect(recorded.statements).toHaveLength(1);
      const before = await checkins();
      const result = await replayCreates({ databaseUrl, recorded, connections: 2, durationMs: 300 });
      expect(result.unexpected, result.firstError).toBe(0);
      expect(result.requests).toBeGreaterThan(0);
      expect(await checkins()).toBe(before + result.requests);
    }
  });

  it('runs a closed loop that ends a client when its work runs out, counts failures, and merges rounds', async () => {
    const work = [true, false, true];
    const result = await runClosedLoop({
      connections: 2,
      durationMs: 5_000,
      next: (index) => (index < work.length ? async () => work[index] ?? false : undefined),
    });
    expect(result.requests).toBe(3);
    expect(result.unexpected).toBe(1);
    const thrown = await runClosedLoop({
      connections: 1,
      durationMs: 5_000,
      next: (index) => (index < 2 ? () => Promise.reject(new Error('reset')) : undefined),
    });
    expect(thrown).toMatchObject({ requests: 2, unexpected: 2, firstError: 'reset' });
    expect(mergeResults([result, thrown])).toMatchObject({ requests: 5, unexpected: 3, firstError: 'reset' });
  });
});
