import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PersonCheckin } from '../../shared/src/schemas/personCheckins';
import { type Database, createDatabase } from '../../server/src/db/database';
import { createTestDatabase } from '../support/database';
import { type OpenStream, type ReceivedEvent, checkinEvent, openEventStream } from '../support/eventStream';
import { type World, buildWorld, visitor } from '../support/factories';
import { apiClient } from '../support/http';
import { type ServerProcess, spawnServer } from '../support/serverProcess';
import { arrive, uniquePlate } from '../support/vehicles';

// Two real server processes on one database, as behind a load balancer (docs/operations.md): a change made
// through either reaches the clients of both, once each, within 2 s (CONTRACT §25).
let database: Database;
let servers: ServerProcess[] = [];
let world: World;
const streams: OpenStream[] = [];

beforeAll(async () => {
  const databaseUrl = await createTestDatabase();
  database = createDatabase({ url: databaseUrl, poolMax: 4 });
  const env = { DATABASE_URL: databaseUrl, SEED_DEMO: 'false', WEBHOOK_DISPATCHER: 'false' };
  servers = await Promise.all([spawnServer(env), spawnServer(env)]);
  world = await buildWorld({ database, baseUrl: servers[0]?.baseUrl ?? '' });
}, 120_000);

afterAll(async () => {
  for (const stream of streams) stream.close();
  for (const server of servers) server.child.kill('SIGKILL');
  await database?.close();
});

const people = (siteId: number) => `/v1/sites/${siteId}/checkins/people`;
const changes = (events: ReceivedEvent[]) =>
  events.filter((event) => event.event === 'checkin').map((event) => [event.lastEventId, event.data]);

async function follow(server: ServerProcess, lastEventId?: string): Promise<OpenStream> {
  const stream = await openEventStream(server.baseUrl, { token: world.token, lastEventId });
  expect(stream.status).toBe(200);
  streams.push(stream);
  await stream.waitFor((event) => event.event === 'reset' || event.event === 'ready');
  return stream;
}

describe('two instances on one database', () => {
  it('a change made through A reaches a client of B within 2 s, and B through A; each streams every change once', async () => {
    const [a, b] = servers as [ServerProcess, ServerProcess];
    const onA = await follow(a);
    const onB = await follow(b);
    const through = { a: apiClient(a.baseUrl, world.token), b: apiClient(b.baseUrl, world.token) };
    const latencies: number[] = [];
    for (const [writer, reader] of [
      [through.a, onB],
      [through.b, onA],
      [through.a, onB],
      [through.b, onA],
    ] as const) {
      const sent = performance.now();
      const created = await writer.post<PersonCheckin>(people(world.siteId), visitor());
      expect(created.status).toBe(201);
      const arrived = await reader.waitFor(checkinEvent(created.body.checkinId, 'IN'), { timeoutMs: 2_000 });
      latencies.push(arrived.at - sent);
    }
    // A vehicle entry and a checkout too, each through one instance.
    const car = await arrive(through.b, world.otherSiteId, { licensePlate: uniquePlate('TWO') });
    expect(
      (await through.a.patch(`/v1/sites/${world.otherSiteId}/checkins/vehicles/${car.checkinId}`, {})).status,
    ).toBe(200);
    await onA.waitFor(checkinEvent(car.checkinId, 'OUT'), { timeoutMs: 2_000 });
    await onB.waitFor(checkinEvent(car.checkinId, 'OUT'), { timeoutMs: 2_000 });
    expect(
      latencies.every((ms) => ms < 2_000),
      `${latencies.map(Math.round).join(', ')} ms`,
    ).toBe(true);
    // Both instances streamed the same changes, in the same order, with the same ids, none twice.
    expect(changes(onA.events)).toEqual(changes(onB.events));
    expect(changes(onA.events)).toHaveLength(6);
    expect(new Set(changes(onA.events).map(([id]) => id)).size).toBe(6);
  });

  it('a client that moves from one instance to the other resumes there without loss', async () => {
    const [a, b] = servers as [ServerProcess, ServerProcess];
    const onA = await follow(a);
    const first = (await apiClient(a.baseUrl, world.token).post<PersonCheckin>(people(world.siteId), visitor())).body;
    const seen = await onA.waitFor(checkinEvent(first.checkinId, 'IN'));
    onA.close();
    const missed: number[] = [];
    for (let index = 0; index < 3; index += 1) {
      const created = await apiClient(a.baseUrl, world.token).post<PersonCheckin>(people(world.siteId), visitor());
      missed.push(created.body.checkinId);
    }
    const onB = await follow(b, seen.lastEventId);
    expect(onB.events[0]?.event).toBe('ready');
    await onB.waitFor(checkinEvent(missed.at(-1) ?? 0, 'IN'));
    expect(onB.events.filter((event) => event.event === 'checkin').map((event) => event.data.checkinId)).toEqual(
      missed,
    );
  });
});
