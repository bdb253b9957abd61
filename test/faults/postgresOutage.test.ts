import { randomUUID } from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { Problem } from '../../shared/src/schemas/common';
import { createDatabase, ensureDatabase } from '../../server/src/db/database';
import {
  type RunningPostgres,
  freePort,
  startEmbeddedPostgres,
  withDatabase,
} from '../../server/src/postgres/embeddedPostgres';
import { queryRows } from '../../server/src/db/query';
import { buildWorld } from '../support/factories';
import { type ServerProcess, spawnServer } from '../support/serverProcess';
import { sql } from '../../server/src/db/sql';

/** Every request must answer within this, database or not (docs/api.md, Errors: 503 while PostgreSQL is unreachable). */
const ANSWER_WITHIN_MS = 10_000;
const CLIENTS = 6;
const DOWN_FOR_MS = 2_500;
const RECOVER_WITHIN_MS = 30_000;
const KINDS = ['person', 'vehicle', 'list'] as const;

type Phase = 'up' | 'stopping' | 'down' | 'restarting' | 'back';

interface Outcome {
  phase: Phase;
  /** The phase when it answered (a request may start in one phase and end in the next). */
  endPhase: Phase;
  /** A person create (one statement), a vehicle entry (a transaction), a list page (a read). */
  kind: (typeof KINDS)[number];
  status: number;
  ms: number;
  contentType: string;
  retryAfter: string | null;
  body: unknown;
  checkinId?: number;
  error?: string;
}

const dataDir = path.join(os.tmpdir(), `gatehouse-fault-pg-${process.pid}-${randomUUID().slice(0, 8)}`);
// Throwaway data: no fsync (the OS does not crash here), but synchronous commits, so a commit the server acknowledged
// is in the WAL even when PostgreSQL is killed. The outages are real: a stop, then a crash-like stop, each restarted on the same port.
const flags = ['-c', 'fsync=off', '-c', 'full_page_writes=off'];
let postgres: RunningPostgres | undefined;
let server: ServerProcess | undefined;

afterAll(async () => {
  server?.child.kill('SIGKILL');
  await postgres?.stop();
  await fs.rm(dataDir, { recursive: true, force: true });
});

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function waitFor(done: () => boolean, withinMs: number, what: string): Promise<void> {
  const deadline = Date.now() + withinMs;
  while (!done()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(20);
  }
}

/** Immediate shutdown (SIGQUIT to the postmaster): sessions die without a goodbye and the restart replays the WAL. */
async function stopImmediately(): Promise<void> {
  const pid = Number((await fs.readFile(path.join(dataDir, 'pg', 'postmaster.pid'), 'utf8')).split('\n')[0]);
  process.kill(pid, 'SIGQUIT');
  await waitFor(
    () => {
      try {
        process.kill(pid, 0);
        return false;
      } catch {
        return true;
      }
    },
    15_000,
    'PostgreSQL to quit',
  );
}

/** Clients sending person creates, vehicle entries and list pages in a loop, recording every answer and its phase. */
function startLoad(baseUrl: string, siteId: number, token: string) {
  const people = `${baseUrl}/v1/sites/${siteId}/checkins/people`;
  const auth = { Authorization: `Bearer ${token}` };
  const write = (body: unknown): RequestInit => ({
    method: 'POST',
    headers: { ...auth, 'Content-Type': 'application/json', 'Idempotency-Key': randomUUID() },
    body: JSON.stringify(body),
  });
  const requestOf = (kind: Outcome['kind'], index: number): [string, RequestInit] => {
    if (kind === 'person') return [people, write({ person: { firstName: `Outage${index}`, lastName: 'Load' } })];
    if (kind === 'vehicle')
      return [
        `${baseUrl}/v1/sites/${siteId}/checkins/vehicles`,
        write({ licensePlate: `OUT${randomUUID().slice(0, 8)}` }),
      ];
    return [`${people}?limit=20`, { headers: auth }];
  };
  const state = { phase: 'up' as Phase, running: true, outcomes: [] as Outcome[] };
  const send = async (kind: Outcome['kind'], index: number): Promise<Outcome> => {
    const started = state.phase;
    const start = performance.now();
    const [url, init] = requestOf(kind, index);
    const base = { phase: started, kind };
    try {
      const response = await fetch(url, { ...init, signal: AbortSignal.timeout(ANSWER_WITHIN_MS + 5_000) });
      const text = await response.text();
      const body = text ? (JSON.parse(text) as unknown) : null;
      const checkinId =
        kind === 'person' && response.status === 201 ? (body as { checkinId: number }).checkinId : undefined;
      return {
        ...base,
        endPhase: state.phase,
        status: response.status,
        ms: performance.now() - start,
        contentType: response.headers.get('content-type') ?? '',
        retryAfter: response.headers.get('retry-after'),
        body,
        checkinId,
      };
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      return {
        ...base,
        endPhase: state.phase,
        status: 0,
        ms: performance.now() - start,
        contentType: '',
        retryAfter: null,
        body: null,
        error: message,
      };
    }
  };
  let sent = 0;
  const client = async () => {
    while (state.running) {
      const index = sent++;
      const outcome = await send(KINDS[index % KINDS.length] ?? 'list', index);
      state.outcomes.push(outcome);
      // A client backs off a little after a 503, as Retry-After asks, without stopping the load.
      if (outcome.status === 503) await sleep(50);
    }
  };
  const done = Promise.all(Array.from({ length: CLIENTS }, client));
  return {
    state,
    stop: async () => {
      state.running = false;
      await done;
    },
  };
}

describe('PostgreSQL stopped and restarted under load', () => {
  it('answers 503 UNAVAILABLE (never hangs) while it is down, /readyz says 503, and the same server recovers by itself, after a stop and after a crash', async () => {
    const port = await freePort();
    postgres = await startEmbeddedPostgres({ dataDir, port, flags });
    await ensureDatabase(postgres.url, 'gatehouse');
    const databaseUrl = withDatabase(postgres.url, 'gatehouse');
    server = await spawnServer({
      DATABASE_URL: databaseUrl,
      SEED_DEMO: 'false',
      RATE_LIMIT_PER_MINUTE: '1000000',
      DB_POOL_MAX: '10',
    });
    const running = server;
    const serverPid = running.child.pid;
    const database = createDatabase({ url: databaseUrl, poolMax: 2 });
    const world = await buildWorld({ database, baseUrl: running.baseUrl });
    // The factories' own pool must not ride through the outages: it is only needed again at the end.
    await database.close();
    const readyz = async () => {
      const response = await fetch(`${running.baseUrl}/readyz`, { signal: AbortSignal.timeout(ANSWER_WITHIN_MS) });
      return {
        status: response.status,
        type: response.headers.get('content-type') ?? '',
        body: (await response.json()) as Partial<Problem>,
      };
    };

    const acknowledged: number[] = [];
    for (const [name, stop] of [
      ['fast shutdown', () => postgres?.stop()],
      ['immediate shutdown (crash)', stopImmediately],
    ] as const) {
      const load = startLoad(running.baseUrl, world.siteId, world.token);
      const { state } = load;
      await waitFor(
        () => state.outcomes.filter((outcome) => outcome.status === 201).length >= 10,
        15_000,
        `${name}: writes before the outage`,
      );
      expect((await readyz()).status).toBe(200);

      state.phase = 'stopping';
      await stop();
      state.phase = 'down';
      await sleep(DOWN_FOR_MS);
      const notReady = await readyz();
      expect(notReady.status, name).toBe(503);
      expect(notReady.type).toMatch(/application\/problem\+json/);
      expect(notReady.body.code).toBe('UNAVAILABLE');
      // Alive and recovering by itself: no reason for a supervisor to restart it.
      expect(
        (await fetch(`${running.baseUrl}/healthz`, { signal: AbortSignal.timeout(ANSWER_WITHIN_MS) })).status,
        name,
      ).toBe(200);

      state.phase = 'restarting';
      postgres = await startEmbeddedPostgres({ dataDir, port, flags });
      state.phase = 'back';
      const recovering = Date.now();
      const succeeded = (kind: Outcome['kind']) =>
        state.outcomes.filter((outcome) => outcome.phase === 'back' && outcome.kind === kind && outcome.status < 300);
      await waitFor(
        () => KINDS.every((kind) => succeeded(kind).length >= 3),
        RECOVER_WITHIN_MS,
        `${name}: every kind of request to succeed again`,
      );
      expect(Date.now() - recovering, name).toBeLessThan(RECOVER_WITHIN_MS);
      expect((await readyz()).status).toBe(200);
      await load.stop();

      // Never a hang, never a dropped connection, never a 500: a success, or 503 UNAVAILABLE as problem+json.
      const { outcomes } = state;
      expect(
        outcomes.filter((outcome) => outcome.status === 0),
        name,
      ).toEqual([]);
      expect(Math.max(...outcomes.map((outcome) => outcome.ms)), name).toBeLessThan(ANSWER_WITHIN_MS);
      const unexpected = outcomes.filter((outcome) => ![200, 201, 503].includes(outcome.status));
      expect(
        unexpected.map((outcome) => ({ status: outcome.status, body: outcome.body })),
        name,
      ).toEqual([]);
      for (const outcome of outcomes.filter((item) => item.status === 503)) {
        expect(outcome.contentType).toMatch(/application\/problem\+json/);
        expect(outcome.body).toMatchObject({ status: 503, code: 'UNAVAILABLE', type: 'urn:problem:unavailable' });
        expect(outcome.retryAfter).toBe('1');
      }
      // While it was down (from start to answer), every answer was a 503, writes and reads alike.
      const whileDown = outcomes.filter((outcome) => outcome.phase === 'down' && outcome.endPhase === 'down');
      expect(whileDown.length, name).toBeGreaterThan(CLIENTS);
      expect(
        whileDown.every((outcome) => outcome.status === 503),
        name,
      ).toBe(true);
      expect(new Set(whileDown.map((outcome) => outcome.kind)).size).toBe(KINDS.length);
      acknowledged.push(...outcomes.flatMap((outcome) => (outcome.checkinId === undefined ? [] : [outcome.checkinId])));
    }
    // The same server process throughout: it recovered twice without a restart.
    expect(running.child.exitCode).toBeNull();
    expect(running.child.pid).toBe(serverPid);

    // Every acknowledged create survived both outages (a commit is acknowledged only once it is written to the WAL).
    const check = createDatabase({ url: databaseUrl, poolMax: 1 });
    const found = await queryRows<{ count: number }>(
      check,
      sql`SELECT count(*)::int AS count FROM person_checkins WHERE id = ANY(${acknowledged}::bigint[])`,
    );
    await check.close();
    expect(found[0]?.count).toBe(acknowledged.length);
  }, 120_000);
});
