import { once } from 'node:events';
import http from 'node:http';
import { createApp, requestHandler } from './app';
import { type BuildResult, ensureConsoleBuild } from './console/build';
import { EnvError, parseEnv, shouldSeedDemo } from './config/env';
import { createDatabase, ensureDatabase } from './db/database';
import { answerClientErrors } from './errors/clientErrors';
import { type RunningPostgres, startEmbeddedPostgres, withDatabase } from './postgres/embeddedPostgres';
import { type SupervisedPostgres, superviseEmbeddedPostgres } from './postgres/supervisor';
import { migrate } from './db/migrate';
import { seedDemo } from './commands/demoSeed';
import { startIdempotencyPurge } from './jobs/idempotencyPurge';
import { startWebhookLogPurge } from './jobs/webhookLogPurge';
import { startStaffPurge } from './jobs/staffPurge';
import { startNotificationPurge } from './jobs/notificationPurge';
import { startPersonDataRetention } from './jobs/personDataRetention';
import { startLoadSignal } from './jobs/loadSignal';
import { startLiveEventPrune } from './jobs/liveEventPrune';
import { LiveEventHub } from './live/eventHub';
import { startDispatcherThread } from './jobs/webhookThread';
import { createLogger } from './logger';
import { createMetrics } from './observability/metrics';
import { RateLimiter } from './rateLimit/limiter';
import { webhookBacklog } from './webhooks/metrics';
import { printBanner } from './banner';
import { issueSetupLinks } from './commands/setupLinks';
import { ensureKioskBuild } from './kioskApp/build';
import { ensureVisitBuild } from './visitApp/build';
import { startSenderFromEnv } from './notifications/senderFromEnv';

const DRAIN_TIMEOUT_MS = 10_000;

/** The embedded database while start-up can still fail: a failed start must not leave it running. */
let stopOnFailure: RunningPostgres | undefined;

/** A Ctrl-C or SIGTERM that came while starting: start-up stops at its next step (see `checkpoint`). */
class StartInterrupted extends Error {}
let interruptedBy: string | undefined;
/** The running server's shutdown, once it serves; until then a signal interrupts the start. */
let shutdownHandler: ((signal: string) => Promise<void>) | undefined;

function onSignal(signal: string): void {
  if (shutdownHandler) {
    void shutdownHandler(signal);
    return;
  }
  // A second signal while starting: stop at once (an embedded PostgreSQL left behind is stopped by the next start).
  if (interruptedBy) process.exit(1);
  interruptedBy = signal;
  process.stderr.write(`${signal}: stopping when the current start-up step ends…\n`);
}
// From the first moment: a signal during start-up (initdb, migrations) must not kill the process and leave
// the embedded PostgreSQL, which runs in a process group of its own, behind.
process.on('SIGTERM', () => onSignal('SIGTERM'));
process.on('SIGINT', () => onSignal('SIGINT'));

/** After each start-up step: stops the start if a signal came meanwhile. */
function checkpoint(): void {
  if (interruptedBy) throw new StartInterrupted(interruptedBy);
}

/**
 * A web app the server serves (the staff console at /console, the kiosk at /kiosk, the phone page at
 * /visit), rebuilt only when its sources changed since its build; one line either way.
 */
async function buildWebApp(name: string, path: string, build: () => Promise<BuildResult>): Promise<void> {
  try {
    const result = await build();
    process.stdout.write(
      result.built ? `${name} built in ${(result.ms / 1000).toFixed(1)} s.\n` : `${name} build is up to date.\n`,
    );
  } catch (error) {
    // The API serves without it; its path then says how to build it.
    process.stdout.write(
      `${name} not built (${error instanceof Error ? error.message : String(error)}); the API runs without ${path}.\n`,
    );
  }
}

async function main(): Promise<void> {
  const env = parseEnv(process.env);
  const log = createLogger(env.LOG_LEVEL);
  let embedded: RunningPostgres | undefined;
  let url = env.DATABASE_URL;
  if (!url) {
    log.info('starting embedded PostgreSQL', { dataDir: env.DATA_DIR });
    embedded = await startEmbeddedPostgres({ dataDir: env.DATA_DIR });
    stopOnFailure = embedded;
    checkpoint();
    await ensureDatabase(embedded.url, 'gatehouse');
    checkpoint();
    url = withDatabase(embedded.url, 'gatehouse');
  }
  const database = createDatabase({ url, poolMax: env.DB_POOL_MAX });
  const applied = await migrate(url, log.warn);
  checkpoint();
  if (applied.length > 0) log.info('migrations applied', { applied });
  const demo = shouldSeedDemo(env) ? await seedDemo(database) : undefined;
  checkpoint();
  const setup = await issueSetupLinks(database, new Date());
  checkpoint();

  await buildWebApp('Console', '/console', () => ensureConsoleBuild());
  checkpoint();
  await buildWebApp('Kiosk', '/kiosk', () => ensureKioskBuild());
  checkpoint();
  await buildWebApp('Visit page', '/visit', () => ensureVisitBuild());
  checkpoint();

  const metrics = createMetrics(database, () => webhookBacklog(database));
  // Made here, so a shutdown writes its last counts (other instances read them).
  const limiter = new RateLimiter(database, env.RATE_LIMIT_PER_MINUTE);
  // Set once serving (below); until then a dead embedded cluster fails the start instead.
  let supervised: SupervisedPostgres | undefined;
  // Made here, so a shutdown ends the event streams first (their clients reconnect to another instance).
  const liveEvents = new LiveEventHub({ pool: database, log, pollMs: env.EVENTS_POLL_MS });
  const app = createApp({
    database,
    env,
    log,
    metrics,
    limiter,
    liveEvents,
    healthy: () => supervised?.healthy() ?? true,
  });
  const server = http.createServer(requestHandler(app.callback()));
  answerClientErrors(server);
  server.keepAliveTimeout = 65_000;
  server.listen(env.PORT, env.HOST);
  await once(server, 'listening').catch((error: unknown) => {
    if ((error as { code?: unknown }).code !== 'EADDRINUSE') throw error;
    throw new Error(
      `port ${env.PORT} on ${env.HOST} is already in use: stop what uses it, or set PORT to a free port.`,
    );
  });
  const purge = startIdempotencyPurge(database, env.IDEMPOTENCY_TTL_HOURS, log);
  const logPurge = startWebhookLogPurge(database, env.WEBHOOK_LOG_RETENTION_DAYS, log);
  const staffPurge = startStaffPurge(database, log);
  const notificationPurge = startNotificationPurge(database, env.NOTIFICATION_LOG_RETENTION_DAYS, log);
  const retention = startPersonDataRetention(database, env.RETENTION_INTERVAL_MINUTES, log);
  const eventPrune = startLiveEventPrune(database, env.EVENTS_RETENTION_MINUTES, log);
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : env.PORT;
  printBanner({
    host: env.HOST,
    port,
    embedded: embedded !== undefined,
    demo,
    demoExists: shouldSeedDemo(env) && demo === undefined,
    setup,
    publicUrl: env.PUBLIC_URL,
  });
  // Every instance may dispatch (leases keep them apart), in a thread of its own; WEBHOOK_DISPATCHER=false
  // leaves it to `npm run worker`.
  const load = env.WEBHOOK_DISPATCHER ? startLoadSignal() : undefined;
  const dispatcher = load
    ? startDispatcherThread(
        {
          databaseUrl: url,
          allowPrivateUrls: env.WEBHOOK_ALLOW_PRIVATE_URLS,
          pollMs: env.WEBHOOK_POLL_MS,
          logLevel: env.LOG_LEVEL,
          load: load.buffer,
          yieldMs: env.WEBHOOK_YIELD_MS,
        },
        {
          log,
          onResults: (counts) => {
            for (const [result, count] of Object.entries(counts))
              if (count > 0) metrics.webhookDeliveries.inc({ result }, count);
          },
        },
      )
    : undefined;
  // Hosts' emails and chat messages (docs/notifications.md), in every instance like the dispatcher.
  const notifier = env.NOTIFICATION_SENDER ? startSenderFromEnv({ env, database, log, port }) : undefined;

  let stopping = false;
  const shutdown = async (signal: string, exitCode = 0) => {
    if (stopping) return;
    stopping = true;
    log.info('shutting down', { signal });
    // An open event stream is a request that never finishes: end them, or the drain waits its whole timeout.
    liveEvents.close();
    const closed = new Promise<void>((resolve) => server.close(() => resolve()));
    server.closeIdleConnections();
    // A keep-alive connection goes idle when its in-flight request finishes: close it then, not at the drain timeout.
    const reaper = setInterval(() => server.closeIdleConnections(), 100);
    const drained = await Promise.race([
      closed.then(() => true),
      new Promise<boolean>((resolve) => setTimeout(() => resolve(false), DRAIN_TIMEOUT_MS).unref()),
    ]);
    clearInterval(reaper);
    if (!drained) server.closeAllConnections();
    // After the drain, so the events of the last requests go out too; then every attempt under way is recorded.
    await dispatcher?.stop();
    await notifier?.stop();
    load?.stop();
    await purge.stop();
    await logPurge.stop();
    await staffPurge.stop();
    await notificationPurge.stop();
    await retention.stop();
    await eventPrune.stop();
    await limiter.stop();
    await database.close();
    await (supervised ?? embedded)?.stop();
    log.info('stopped');
    process.exit(exitCode);
  };
  shutdownHandler = shutdown;
  if (embedded) {
    const { port } = embedded;
    supervised = superviseEmbeddedPostgres(
      embedded,
      () => startEmbeddedPostgres({ dataDir: env.DATA_DIR, port, existingOnly: true }),
      {
        log,
        onGiveUp: () => {
          // Whatever the drain meets with no database, the process ends: a supervisor can then start it afresh.
          setTimeout(() => process.exit(1), DRAIN_TIMEOUT_MS * 3).unref();
          void shutdown('embedded PostgreSQL lost', 1);
        },
      },
    );
  }
  // Serving: from here on a stop goes through shutdown, which stops the embedded PostgreSQL itself.
  stopOnFailure = undefined;
  // A signal that came while the server started listening: shut down now.
  if (interruptedBy) void shutdown(interruptedBy);
}

/** How long a failed start waits for a signal that may have caused the failure to reach its handler. */
const SIGNAL_GRACE_MS = 250;

main().catch(async (error: unknown) => {
  await stopOnFailure?.stop();
  // Ctrl-C reaches initdb too (it runs in this process group): its failure can be seen before the signal's
  // own handler has run. A moment for that handler, so such a start reads as stopped, not as failed.
  if (!(error instanceof StartInterrupted) && !interruptedBy)
    await new Promise((resolve) => setTimeout(resolve, SIGNAL_GRACE_MS));
  // Also when the step failed because of the signal: initdb then stops and removes what it had written,
  // so the next start initialises afresh.
  if (error instanceof StartInterrupted || interruptedBy) {
    process.stderr.write(`Stopped during start-up (${interruptedBy ?? String(error)}).\n`);
    process.exit(0);
  }
  if (error instanceof EnvError) {
    process.stderr.write(`${error.message}\n`);
  } else {
    process.stderr.write(`Gatehouse failed to start: ${error instanceof Error ? error.message : String(error)}\n`);
    if (process.env.LOG_LEVEL === 'debug' && error instanceof Error) process.stderr.write(`${error.stack}\n`);
  }
  process.exit(1);
});
