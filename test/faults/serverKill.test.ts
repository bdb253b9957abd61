/**
 * The server process killed with SIGKILL during a burst of keyed break starts and checkouts; restarted;
 * every request retried with its key. Keyed creates under the same fault are covered by
 * test/server/crashRecovery.test.ts; this file covers the transaction-mode actions.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { PersonCheckin } from '../../shared/src/schemas/personCheckins';
import { createDatabase } from '../../server/src/db/database';
import { queryRows } from '../../server/src/db/query';
import { createTestDatabase } from '../support/database';
import { buildWorld, visitor } from '../support/factories';
import { type ApiClient, type ApiResponse, apiClient } from '../support/http';
import { type ServerProcess, spawnServer } from '../support/serverProcess';
import { sql } from '../../server/src/db/sql';

const running: ServerProcess[] = [];
afterEach(() => {
  for (const server of running.splice(0)) server.child.kill('SIGKILL');
});

const CHECKINS = 120;
const CONCURRENCY = 12;

type Step = 'start' | 'checkout';

/** Sends one step of a check-in with its own key (the same key on every retry). */
function stepOf(api: ApiClient, path: string, checkinId: number, step: Step): Promise<ApiResponse<PersonCheckin>> {
  const key = `${step}-${checkinId}`;
  return step === 'start'
    ? api.post<PersonCheckin>(`${path}/${checkinId}/breaks/start`, {}, { idempotencyKey: key })
    : api.patch<PersonCheckin>(`${path}/${checkinId}`, {}, { idempotencyKey: key });
}

/** Retries a step until it is acknowledged; a key still locked by a dying transaction answers 409 IN_USE for a moment. */
async function untilAcknowledged(send: () => Promise<ApiResponse<PersonCheckin>>): Promise<PersonCheckin> {
  for (let attempt = 0; attempt < 50; attempt += 1) {
    const response = await send();
    if (response.status === 200) return response.body;
    expect(response.status, response.text).toBe(409);
    expect(response.text).toContain('IDEMPOTENCY_KEY_IN_USE');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error('never acknowledged');
}

describe('a server killed during keyed break starts and checkouts (SIGKILL)', () => {
  it('after a restart, retrying every step leaves each check-in with one break, one checkout and one event each; every acknowledged answer stands', async () => {
    const databaseUrl = await createTestDatabase();
    const database = createDatabase({ url: databaseUrl, poolMax: 4 });
    const env = { DATABASE_URL: databaseUrl, SEED_DEMO: 'false', RATE_LIMIT_PER_MINUTE: '1000000' };
    const first = await spawnServer(env);
    running.push(first);
    const world = await buildWorld({ database, baseUrl: first.baseUrl });
    const path = `/v1/sites/${world.siteId}/checkins/people`;
    const ids: number[] = [];
    for (let batch = 0; batch < CHECKINS; batch += CONCURRENCY) {
      const created = await Promise.all(
        Array.from({ length: Math.min(CONCURRENCY, CHECKINS - batch) }, (_, offset) =>
          world.api.post<PersonCheckin>(path, visitor(`Kill${batch + offset}`, 'Burst')),
        ),
      );
      for (const response of created) {
        expect(response.status).toBe(201);
        ids.push(response.body.checkinId);
      }
    }

    // The burst: each check-in starts a break, then checks out; answers that arrive are remembered.
    const acknowledged = new Map<string, PersonCheckin>();
    let next = 0;
    const worker = async () => {
      while (next < ids.length) {
        const checkinId = ids[next++] ?? 0;
        try {
          for (const step of ['start', 'checkout'] as const) {
            const response = await stepOf(world.api, path, checkinId, step);
            if (response.status !== 200) break;
            acknowledged.set(`${step}-${checkinId}`, response.body);
          }
        } catch {
          // the connection died with the process: this step is unacknowledged
        }
      }
    };
    const burst = Promise.all(Array.from({ length: CONCURRENCY }, worker));
    while ([...acknowledged.keys()].filter((key) => key.startsWith('checkout')).length < 30) {
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    first.child.kill('SIGKILL');
    await first.exited;
    await burst;
    expect(acknowledged.size).toBeLessThan(2 * CHECKINS);

    const second = await spawnServer(env);
    running.push(second);
    const retry = apiClient(second.baseUrl, world.token);
    for (const checkinId of ids) {
      const started = await untilAcknowledged(() => stepOf(retry, path, checkinId, 'start'));
      const left = await untilAcknowledged(() => stepOf(retry, path, checkinId, 'checkout'));
      // A replay is the stored answer: the same break, the same exit, as first acknowledged.
      const firstStart = acknowledged.get(`start-${checkinId}`);
      if (firstStart) expect(started).toEqual(firstStart);
      const firstCheckout = acknowledged.get(`checkout-${checkinId}`);
      if (firstCheckout) expect(left).toEqual(firstCheckout);
      expect(left.status).toBe('OUT');
      expect(left.breaks).toHaveLength(1);
      expect(left.breaks[0]?.breakId).toBe(started.breaks[0]?.breakId);
    }

    const breaks = await queryRows<{ checkin_id: number; count: number; open: number }>(
      database,
      sql`SELECT checkin_id, count(*)::int AS count, count(*) FILTER (WHERE ended_at IS NULL)::int AS open
       FROM person_breaks WHERE checkin_id = ANY(${ids}::bigint[]) GROUP BY checkin_id`,
    );
    expect(breaks).toHaveLength(CHECKINS);
    expect(breaks.every((row) => row.count === 1 && row.open === 0)).toBe(true);
    const events = await queryRows<{ type: string; count: number }>(
      database,
      sql`SELECT type, count(*)::int AS count FROM outbox_events
       WHERE type IN ('PERSON_BREAK_STARTED', 'PERSON_CHECKIN_EXITED')
         AND (payload->'data'->'checkin'->>'checkinId')::bigint = ANY(${ids}::bigint[])
       GROUP BY type, payload->'data'->'checkin'->>'checkinId'`,
    );
    expect(events).toHaveLength(2 * CHECKINS);
    expect(events.every((row) => row.count === 1)).toBe(true);
    const statuses = await queryRows<{ status: string; count: number }>(
      database,
      sql`SELECT status, count(*)::int AS count FROM person_checkins WHERE id = ANY(${ids}::bigint[]) GROUP BY status`,
    );
    expect(statuses).toEqual([{ status: 'OUT', count: CHECKINS }]);
    await database.close();
  }, 120_000);
});
