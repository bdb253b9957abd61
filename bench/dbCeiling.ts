/**
 * The "physical limit" of a person create: the very statements the API sends PostgreSQL for one create by
 * a token it knows (one statement: the caller's check, the insert with its outbox event and, when keyed,
 * the Idempotency-Key record; and, once every 32 creates, a block of ids), recorded from the real app as
 * it sends them (text, binds, and the prepared statement's name where it has one) rather than copied, then
 * replayed the same way by plain `pg` clients in a closed loop at the same concurrency. No HTTP, JSON,
 * validation or pool in the way: what PostgreSQL and one round trip per statement cost.
 */
import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import http from 'node:http';
import pg from 'pg';
import { createApp, requestHandler } from '../server/src/app';
import { hashToken } from '../server/src/auth/tokenFormat';
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
  /** The id the recorded request got (from the app's block of ids): every bind equal to it is the check-in's id. */
  checkinId: number;
  key: string | undefined;
  /** The token's and the site's row versions the statement checks, as recorded (a replay binds the current ones). */
  versions: string[];
  tokenHash: Buffer;
  siteId: number;
}

/**
 * Work of the process that is not the request's: the rate limiter's sync, the coarse lastUsedAt update and
 * a new block of ids (which the replay draws the same way, once every ID_BLOCK creates).
 */
const BACKGROUND = /rate_limit_windows|SET last_used_at|generate_series/;
const ID_BLOCK = 32;
const ID_BLOCK_SQL = `SELECT nextval(pg_get_serial_sequence('person_checkins', 'id')) AS id FROM generate_series(1, ${ID_BLOCK})`;
const VERSIONS_SQL = `SELECT t.xmin::text AS token, s.xmin::text AS site FROM api_tokens t JOIN sites s ON s.account_id = t.account_id
  WHERE t.token_hash = $1 AND s.id = $2`;
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
  const server = http.createServer(requestHandler(app.callback()));
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
    // Twice untimed: the first writes the token's lastUsedAt, the second (finding it fresh) makes the token
    // known, so the recorded request is what a steady client's creates send.
    await post();
    await post();
    recording = true;
    const checkinId = await post(input.key);
    recording = false;
    const uses = statements.flatMap((statement) => statement.bind).filter((value) => value === checkinId);
    if (statements.length !== 1 || uses.length < 1)
      throw new Error(
        `the recorded create does not look like one: ${statements.map((s) => s.sql.slice(0, 40)).join(' | ')}`,
      );
    const tokenHash = hashToken(input.token);
    const siteId = Number(/\/sites\/(\d+)\//.exec(input.path)?.[1]);
    const versions = await currentVersions(input.databaseUrl, tokenHash, siteId);
    return { statements, checkinId, key: input.key, versions, tokenHash, siteId };
  } finally {
    stopObserving();
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
    await limiter.stop();
    await database.close();
  }
}

/** The token's and the site's row versions now (the token's changes when the app writes its lastUsedAt). */
async function currentVersions(databaseUrl: string, tokenHash: Buffer, siteId: number): Promise<string[]> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const row = (await client.query<{ token: string; site: string }>(VERSIONS_SQL, [tokenHash, siteId])).rows[0];
    if (!row) throw new Error('the recorded token or site is gone');
    return [row.token, row.site];
  } finally {
    await client.end();
  }
}

/** One replay's binds: its own check-in id, Idempotency-Key, event ids and row versions; the rest as recorded. */
function rebind(
  bind: unknown[],
  recorded: RecordedCreate,
  fresh: { id: number; key: string; versions: string[] },
): unknown[] {
  const events = new Map<string, string>();
  return bind.map((value) => {
    if (value === recorded.checkinId) return fresh.id;
    if (typeof value !== 'string') return value;
    if (recorded.key !== undefined && value === recorded.key) return fresh.key;
    const version = recorded.versions.indexOf(value);
    if (version >= 0) return fresh.versions[version];
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
  const versions = await currentVersions(input.databaseUrl, recorded.tokenHash, recorded.siteId);
  /** Each client's ids, drawn a block at a time as the app draws them. */
  const blocks = new Map<pg.Client, number[]>();
  const nextId = async (client: pg.Client) => {
    let ids = blocks.get(client) ?? [];
    if (ids.length === 0) {
      const rows = await client.query<{ id: number }>({ text: ID_BLOCK_SQL, name: 'ceiling_id_block' });
      ids = rows.rows.map((row) => row.id);
    }
    const id = ids.shift();
    blocks.set(client, ids);
    return id;
  };
  try {
    return await runClosedLoop({
      connections: input.connections,
      durationMs: input.durationMs,
      next: (index) => async () => {
        const client = idle.pop();
        if (!client) throw new Error('no idle client: the loop ran more tasks than connections');
        try {
          const id = await nextId(client);
          if (id === undefined) return false;
          const fresh = { id, key: `ceiling-${run}-${index}`, versions };
          for (const statement of recorded.statements) {
            const result = await client.query<{ saved?: boolean; caller?: boolean }>({
              text: statement.sql,
              name: statement.name,
              values: rebind(statement.bind, recorded, fresh),
            });
            // A create that wrote nothing (the caller's versions moved on) is no create.
            if (result.rows[0]?.saved === false || result.rows[0]?.caller === false) return false;
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
