import { beforeAll, describe, expect, it } from 'vitest';
import { queryOne, queryRows } from '../../server/src/db/query';
import { sql } from '../../server/src/db/sql';
import { ProblemError } from '../../server/src/errors/problem';
import { EXPORT_THREAD_DEFAULTS, createExportThreads } from '../../server/src/exports/exportThreads';
import { buildToken } from '../support/factories';
import { startTestServer } from '../support/testServer';
import { serverAndWorld } from '../support/serverAndWorld';

const harness = serverAndWorld();
/** Large enough (about 25 MB of CSV) that a client that stops reading holds its export mid-way. */
const VISITS = 40_000;
const PATH = '/v1/checkins/people/export?from=2026-01-01&to=2026-12-31';
/** Four tokens: each may run one export at a time (docs/api.md, Export). */
let tokens: Array<Record<string, string>>;
let headers: Record<string, string>;

beforeAll(async () => {
  const { server, world } = harness;
  await queryOne(
    server.database,
    sql`
    INSERT INTO person_checkins (account_id, site_id, status, first_name, last_name, purpose, entry_source, entry_at, exit_source, exit_at,
                                 last_event_at, created_at, updated_at)
    SELECT ${world.accountId}, ${world.siteId}, 'OUT', 'Ada', 'Visitor ' || g, repeat('x', 600), 'KIOSK', t, 'KIOSK', t + interval '1 hour', t, t, t
      FROM generate_series(1, ${VISITS}) AS g, LATERAL (SELECT '2026-06-01T08:00:00Z'::timestamptz + g * interval '1 minute' AS t) AS x`,
  );
  tokens = [];
  for (let i = 0; i < 4; i += 1) {
    const token = await buildToken(server, { accountId: world.accountId, allSites: true, scopes: ['exports:read'] });
    tokens.push({ Authorization: `Bearer ${token.token}` });
  }
  headers = tokens[0] ?? {};
});

/** The export connections open on this test's database (each export thread has exactly one). */
async function exportConnections(): Promise<number> {
  const row = await queryOne<{ n: number }>(
    harness.server.database,
    sql`
    SELECT count(*)::int AS n FROM pg_stat_activity WHERE application_name = 'gatehouse-export' AND datname = current_database()`,
  );
  return row?.n ?? 0;
}

async function until(condition: () => Promise<boolean>, ms = 10_000): Promise<boolean> {
  const deadline = Date.now() + ms;
  while (Date.now() < deadline) {
    if (await condition()) return true;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return false;
}

/** An export whose first bytes were read, then left unread: the thread waits on the socket. */
async function heldExport(
  by = 1,
  baseUrl = harness.server.baseUrl,
): Promise<{ abort: () => void; rest: () => Promise<number> }> {
  const controller = new AbortController();
  const response = await fetch(`${baseUrl}${PATH}`, { headers: tokens[by], signal: controller.signal });
  expect(response.status).toBe(200);
  const reader = response.body?.getReader();
  if (!reader) throw new Error('no body');
  await reader.read();
  return {
    abort: () => controller.abort(),
    async rest() {
      let bytes = 0;
      for (let read = await reader.read(); !read.done; read = await reader.read()) bytes += read.value.byteLength;
      return bytes;
    },
  };
}

/** The whole export's lines, read to the end; each visit's name once (chunks reuse memory: none is garbled). */
async function lineCount(): Promise<number> {
  const response = await fetch(`${harness.server.baseUrl}${PATH}`, { headers });
  expect(response.status).toBe(200);
  const text = await response.text();
  expect(new Set(text.match(/,Visitor \d+,/g)).size).toBe(VISITS);
  return text.split('\r\n').length - 2;
}

describe('export threads', () => {
  it('ends the thread and its database connection when the client leaves mid-export', async () => {
    const held = await heldExport();
    expect(await exportConnections()).toBe(1);
    held.abort();
    expect(await until(async () => (await exportConnections()) === 0)).toBe(true);
    expect(await lineCount()).toBe(VISITS);
  });

  it('runs two exports at once; a third waits for one of them to end', async () => {
    const first = await heldExport(1);
    const second = await heldExport(2);
    expect(await exportConnections()).toBe(2);
    let third: number | undefined;
    const waiting = lineCount().then((lines) => (third = lines));
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    expect(third).toBeUndefined();
    expect(await exportConnections()).toBe(2);
    first.abort();
    expect(await waiting).toBe(VISITS);
    second.abort();
    expect(await until(async () => (await exportConnections()) === 0)).toBe(true);
  });

  it('drops an export whose client left while it waited for its turn, quietly and unaudited', async () => {
    const exported = async () =>
      (
        await queryOne<{ n: number }>(
          harness.server.database,
          sql`SELECT count(*)::int AS n FROM audit_events WHERE action = 'checkins.exported'`,
        )
      )?.n ?? 0;
    const first = await heldExport(1);
    const second = await heldExport(2);
    const audited = await exported();
    const errors = harness.server.logs.filter((line) => line.level === 'error').length;
    const controller = new AbortController();
    const third = fetch(`${harness.server.baseUrl}${PATH}`, { headers, signal: controller.signal }).catch(() => 'left');
    await new Promise((resolve) => setTimeout(resolve, 500));
    controller.abort();
    expect(await third).toBe('left');
    first.abort();
    await new Promise((resolve) => setTimeout(resolve, 2_000));
    expect(await exportConnections()).toBe(1);
    // Compared as messages, so a failure says what was logged.
    const errorLines = () => harness.server.logs.filter((line) => line.level === 'error').map((line) => line.message);
    expect(errorLines().slice(errors)).toEqual([]);
    expect(await exported()).toBe(audited);
    second.abort();
    expect(await until(async () => (await exportConnections()) === 0)).toBe(true);
  });

  it('cuts the download and logs when the export fails mid-stream', async () => {
    const held = await heldExport();
    await queryRows(
      harness.server.database,
      sql`
      SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = 'gatehouse-export' AND datname = current_database()`,
    );
    await expect(held.rest()).rejects.toThrow();
    expect(
      harness.server.logs.some((line) => line.level === 'error' && line.message.includes('streamed response failed')),
    ).toBe(true);
    expect(await until(async () => (await exportConnections()) === 0)).toBe(true);
  });

  it('refuses with 503 and Retry-After once an export has waited its time for a slot', async () => {
    const { server, world } = harness;
    const threads = createExportThreads({
      ...EXPORT_THREAD_DEFAULTS,
      databaseUrl: server.databaseUrl,
      concurrency: 1,
      queueMs: 300,
    });
    const filter = { accountId: world.accountId, from: '2026-01-01', to: '2026-12-31', now: new Date() };
    const running = await threads.start({ kind: 'people', filter, custom: [] }, 1);
    const refusal = await threads.start({ kind: 'people', filter, custom: [] }, 2).then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(refusal).toBeInstanceOf(ProblemError);
    expect(refusal).toMatchObject({ code: 'UNAVAILABLE', extras: { headers: { 'Retry-After': '1' } } });
    await running.next();
    expect(await exportConnections()).toBe(1);
    await running.return?.();
    expect(await until(async () => threads.running() === 0 && (await exportConnections()) === 0)).toBe(true);
  });

  // The audit's reproduction (issue 31): two stalled downloads held both slots, and every export waited.
  it('one export per token at a time: a second is 409 EXPORT_IN_PROGRESS until the first ends', async () => {
    const first = await heldExport(3);
    const second = await fetch(`${harness.server.baseUrl}${PATH}`, { headers: tokens[3] });
    expect(second.status).toBe(409);
    expect(await second.json()).toMatchObject({ code: 'EXPORT_IN_PROGRESS' });
    first.abort();
    expect(await until(async () => (await exportConnections()) === 0)).toBe(true);
    const again = await fetch(`${harness.server.baseUrl}${PATH}`, { headers: tokens[3] });
    expect(again.status).toBe(200);
    await again.body?.cancel();
    expect(await until(async () => (await exportConnections()) === 0)).toBe(true);
  });

  it('ends an export whose client reads nothing for the stall limit, freeing its slot', async () => {
    const stalling = await startTestServer(
      {},
      { databaseUrl: harness.server.databaseUrl, exports: { stallMs: 1_000 } },
    );
    try {
      const held = await heldExport(1, stalling.baseUrl);
      expect(await exportConnections()).toBe(1);
      expect(await until(async () => (await exportConnections()) === 0, 15_000)).toBe(true);
      await expect(held.rest()).rejects.toThrow();
      expect(stalling.logs.some((line) => line.level === 'warn' && line.message.includes('no progress'))).toBe(true);
    } finally {
      await stalling.close();
    }
  });
});
