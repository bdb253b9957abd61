import { afterEach, describe, expect, it } from 'vitest';
import { createDatabase } from '../../server/src/db/database';
import { queryRows } from '../../server/src/db/query';
import { createTestDatabase } from '../support/database';
import { buildWorld } from '../support/factories';
import { type ServerProcess, spawnServer } from '../support/serverProcess';
import { apiClient } from '../support/http';
import { sql } from '../../server/src/db/sql';

const running: ServerProcess[] = [];
afterEach(() => {
  for (const server of running.splice(0)) server.child.kill('SIGKILL');
});

const REQUESTS = 240;
const CONCURRENCY = 12;

describe('a server killed mid-burst leaves no half-state (SIGKILL)', () => {
  it('after a restart, retrying every keyed create gives each key exactly one check-in, and every acknowledged one survives', async () => {
    const databaseUrl = await createTestDatabase();
    const database = createDatabase({ url: databaseUrl, poolMax: 4 });
    const env = { DATABASE_URL: databaseUrl, SEED_DEMO: 'false' };
    const first = await spawnServer(env);
    running.push(first);
    const world = await buildWorld({ database, baseUrl: first.baseUrl });
    const { api } = world;
    const path = `/v1/sites/${world.siteId}/checkins/people`;
    const bodyOf = (index: number) => ({ person: { firstName: `Crash${index}`, lastName: 'Test' } });
    const keyOf = (index: number) => `crash-${index}`;

    const acknowledged = new Map<number, number>();
    let next = 0;
    const worker = async () => {
      while (next < REQUESTS) {
        const index = next++;
        try {
          const response = await api.post<{ checkinId: number }>(path, bodyOf(index), { idempotencyKey: keyOf(index) });
          if (response.status === 201) acknowledged.set(index, response.body.checkinId);
        } catch {
          // the connection died with the process: this request is unacknowledged
        }
      }
    };
    const burst = Promise.all(Array.from({ length: CONCURRENCY }, worker));
    while (acknowledged.size < 40) await new Promise((resolve) => setTimeout(resolve, 5));
    first.child.kill('SIGKILL');
    await first.exited;
    await burst;
    expect(acknowledged.size).toBeLessThan(REQUESTS);

    const second = await spawnServer(env);
    running.push(second);
    const retry = apiClient(second.baseUrl, world.token);
    const finalIds = new Map<number, number>();
    for (let index = 0; index < REQUESTS; index += 1) {
      for (let attempt = 0; ; attempt += 1) {
        expect(attempt).toBeLessThan(50);
        const response = await retry.post<{ checkinId: number }>(path, bodyOf(index), { idempotencyKey: keyOf(index) });
        if (response.status === 201) {
          finalIds.set(index, response.body.checkinId);
          break;
        }
        expect(response.status).toBe(409);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    }
    for (const [index, checkinId] of acknowledged) expect(finalIds.get(index)).toBe(checkinId);

    const rows = await queryRows<{ first_name: string; count: number }>(
      database,
      sql`SELECT first_name, count(*)::int AS count FROM person_checkins WHERE last_name = 'Test' GROUP BY first_name`,
    );
    expect(rows).toHaveLength(REQUESTS);
    expect(rows.every((row) => row.count === 1)).toBe(true);
    await database.close();
  }, 120_000);
});
