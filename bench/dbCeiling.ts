/**
 * The "physical limit" of a person create: the very statements the API sends PostgreSQL for one create
 * (the token-and-site lookup, the PRECHECK, the guarded insert with its outbox event and, when keyed, the
 * Idempotency-Key record), recorded from the real app as it sends them (text, binds, and the prepared
 * statement's name where it has one) rather than copied, then replayed the same way by plain `pg` clients in
 * a closed loop at the same concurrency. No HTTP, JSON, validation or pool in the way: what PostgreSQL and
 * one round trip per statement cost.
 */
import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import http from 'node:http';
import pg from 'pg';
import { createApp } from '../server/src/app';
import { parseEnv } from '../server/src/config/env';
import { createDatabase } from '../server/src/db/database';
import { observeStatements } from '../server/src/db/query';
import type { Logger } from '../server/src/logger';
import { RateLimiter } from '../server/src/rateLimit/limiter';
import { type LoadResult, runClosedLoop } from './load';

interface RecordedStatement {
  sql: string;
  /** The prepared statement's name, when the app prepares it (the replay then does too). */
  name: string | undefined;
  bind: unknown[];
}

export interface RecordedCreate {
  statements: RecordedStatement[];
  /** The statement whose row's `id` is the new check-in's id (it draws it from the sequence). */
  idFrom: number;
  /** The id the recorded request got: every later bind equal to it is the check-in's id. */
  checkinId: number;
  key: string | undefined;
}

/** Work of the process that is not the request's: the rate limiter's sync and the coarse lastUsedAt update. */
const BACKGROUND = /rate_limit_windows|SET last_used_at/;
const EVENT_ID = /evt_[A-Za-z0-9_-]+/g;
const silent: Logger = { info: () => undefined, warn: () => undefined, error: () => undefined };

/** Runs the real app in this process on `databaseUrl` and records what one create sends PostgreSQL. */
export async function recordCreate(input: {
  databaseUrl: string;
  path: string;
  token: string;
  body: string;
  key?: string;
}): Promise<RecordedCreate> {
  const database = createDatabase({ url: input.databaseUrl, poolMax: 2 });
  const env = parseEnv({ DATABASE_URL: input.databaseUrl, LOG_LEVEL: 'silent', RATE_LIMIT_PER_MINUTE: '1000000000' });
  const limiter = new RateLimiter(database, env.RATE_LIMIT_PER_MINUTE);
  const app = createApp({ database, env, log: silent, limiter });
  const server = http.createServer(app.callback());
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const address = server.address();
  const url = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}${input.path}`;
  let recording = false;
  const statements: RecordedStatement[] = [];
  const stopObserving = observeStatements(database, (statement) => {
    if (!recording || BACKGROUND.test(statement.text)) return;
    statements.push({ sql: statement.text, name: statement.name, bind: [...statement.values] });
  });
  const post = async (key?: string) => {
    const headers: Record<string, string> = {
      Authorization: `Bearer ${input.token}`,
      'Content-Type': 'application/json',
    };
    if (key !== undefined) headers['Idempotency-Key'] = key;
    const response = await fetch(url, { method: 'POST', headers, body: input.body });
    const body = (await response.json()) as { checkinId?: unknown };
    if (response.status !== 201 || typeof body.checkinId !== 'number')
      throw new Error(`recording create: HTTP ${response.status}`);
    return body.checkinId;
  };
  try {
    // Once untimed, so the token's lastUsedAt is fresh and the request records only its own statements.
    await post();
    recording = true;
    const checkinId = await post(input.key);
    recording = false;
    const idFrom = statements.findIndex((statement) => statement.sql.includes('nextval('));
    const uses = statements
      .slice(idFrom + 1)
      .flatMap((statement) => statement.bind)
      .filter((value) => value === checkinId);
    if (idFrom < 0 || uses.length !== 1)
      throw new Error(
        `the recorded create does not look like one: ${statements.map((s) => s.sql.slice(0, 40)).join(' | ')}`,
      );
    return { statements, idFrom, checkinId, key: input.key };
  } finally {
    stopObserving();
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
    await limiter.stop();
    await database.close();
  }
}

/** One replay's binds: its own check-in id, Idempotency-Key and event ids, everything else as recorded. */
function rebind(bind: unknown[], recorded: RecordedCreate, fresh: { id: number | undefined; key: string }): unknown[] {
  const events = new Map<string, string>();
  return bind.map((value) => {
    if (fresh.id !== undefined && value === recorded.checkinId) return fresh.id;
    if (typeof value !== 'string') return value;
    if (recorded.key !== undefined && value === recorded.key) return fresh.key;
    return value.replace(EVENT_ID, (old) => {
      const replacement = events.get(old) ?? `evt_${randomBytes(16).toString('base64url')}`;
      events.set(old, replacement);
      return replacement;
    });
  });
}

/** The recorded statements replayed by `connections` plain pg clients in a closed loop; each replay is one create. */
export async function replayCreates(input: {
  databaseUrl: string;
  recorded: RecordedCreate;
  connections: number;
  durationMs: number;
}): Promise<LoadResult> {
  const { recorded } = input;
  const clients = await Promise.all(
    Array.from({ length: input.connections }, async () => {
      const client = new pg.Client({
        connectionString: input.databaseUrl,
        application_name: 'gatehouse-bench-ceiling',
      });
      // A connection lost between queries is reported by its next query (counted as an error), not by a crash.
      client.on('error', () => undefined);
      await client.connect();
      return client;
    }),
  );
  const idle = [...clients];
  const run = `${process.pid}-${Date.now()}`;
  try {
    return await runClosedLoop({
      connections: input.connections,
      durationMs: input.durationMs,
      next: (index) => async () => {
        const client = idle.pop();
        if (!client) throw new Error('no idle client: the loop ran more tasks than connections');
        try {
          const fresh: { id: number | undefined; key: string } = { id: undefined, key: `ceiling-${run}-${index}` };
          for (const [position, statement] of recorded.statements.entries()) {
            const result = await client.query<{ id?: unknown }>({
              text: statement.sql,
              name: statement.name,
              values: rebind(statement.bind, recorded, fresh),
            });
            if (position === recorded.idFrom) {
              const id = result.rows[0]?.id;
              if (typeof id !== 'number') return false;
              fresh.id = id;
            }
          }
          return true;
        } finally {
          idle.push(client);
        }
      },
    });
  } finally {
    await Promise.all(clients.map((client) => client.end()));
  }
}
