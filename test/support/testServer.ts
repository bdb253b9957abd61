import http from 'node:http';
import { once } from 'node:events';
import type { Socket } from 'node:net';
import { createApp, requestHandler } from '../../server/src/app';
import { type Env, parseEnv } from '../../server/src/config/env';
import { type Database, createDatabase } from '../../server/src/db/database';
import { answerClientErrors } from '../../server/src/errors/clientErrors';
import {
  EXPORT_THREAD_DEFAULTS,
  type ExportThreadOptions,
  createExportThreads,
} from '../../server/src/exports/exportThreads';
import type { Logger } from '../../server/src/logger';
import { RateLimiter } from '../../server/src/rateLimit/limiter';
import { LiveEventHub } from '../../server/src/live/eventHub';
import { createTestDatabase } from './database';

export interface TestServer {
  baseUrl: string;
  databaseUrl: string;
  /** The server's database handle (an Executor for the pool), shared with the test. */
  database: Database;
  /** Plain SQL with `$1…` bind values on the server's pool, for tests that read or arrange rows directly: the rows. */
  query: (text: string, bind?: unknown[]) => Promise<Array<Record<string, unknown>>>;
  env: Env;
  /** Log lines written during the test (errors included), to assert nothing unexpected was logged. */
  logs: Array<{ level: string; message: string; fields?: Record<string, unknown> }>;
  /** Cuts every open `GET /v1/events` connection (its socket), as a proxy or a restart would. */
  cutEventStreams: () => number;
  close: () => Promise<void>;
}

export const TEST_ADMIN_TOKEN = 'test-admin-Q7vK2mX9pL4wR8tZ3nB6yH1cF5jD0sGe';

/** The real app on 127.0.0.1 and a port of its own, on a database of its own (or a given one, to share it). */
export async function startTestServer(
  overrides: Record<string, string> = {},
  options: {
    clock?: () => Date;
    databaseUrl?: string;
    kioskDir?: string;
    /** Export limits over EXPORT_THREAD_DEFAULTS (a short stall limit, say). */
    exports?: Partial<Omit<ExportThreadOptions, 'databaseUrl'>>;
  } = {},
): Promise<TestServer & { limiter: RateLimiter }> {
  const databaseUrl = options.databaseUrl ?? (await createTestDatabase());
  const env = parseEnv({ ADMIN_TOKEN: TEST_ADMIN_TOKEN, LOG_LEVEL: 'silent', DATABASE_URL: databaseUrl, ...overrides });
  const database = createDatabase({ url: databaseUrl, poolMax: 20 });
  const logs: TestServer['logs'] = [];
  const record = (level: string) => (message: string, fields?: Record<string, unknown>) => {
    logs.push({ level, message, fields });
  };
  const log: Logger = { info: record('info'), warn: record('warn'), error: record('error') };
  const limiter = new RateLimiter(database, env.RATE_LIMIT_PER_MINUTE, options.clock);
  const liveEvents = new LiveEventHub({ pool: database, log, pollMs: env.EVENTS_POLL_MS });
  const exportThreads = options.exports
    ? createExportThreads({ ...EXPORT_THREAD_DEFAULTS, ...options.exports, databaseUrl })
    : undefined;
  const app = createApp({
    database,
    env,
    log,
    validateResponses: true,
    clock: options.clock,
    limiter,
    liveEvents,
    exportThreads,
    kioskDir: options.kioskDir,
  });
  const server = http.createServer(requestHandler(app.callback()));
  answerClientErrors(server);
  const streamSockets = new Set<Socket>();
  server.on('request', (request: http.IncomingMessage) => {
    if (!request.url?.startsWith('/v1/events')) return;
    streamSockets.add(request.socket);
    request.socket.once('close', () => streamSockets.delete(request.socket));
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    databaseUrl,
    database,
    query: async (text, bind) => (await database.pool.query<Record<string, unknown>>(text, bind)).rows,
    env,
    logs,
    limiter,
    cutEventStreams() {
      const cut = streamSockets.size;
      for (const socket of streamSockets) socket.destroy();
      streamSockets.clear();
      return cut;
    },
    async close() {
      liveEvents.close();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await limiter.stop();
      await database.close();
    },
  };
}
