/**
 * `npm run worker`: the webhook dispatcher and the notification sender alone, for deployments that run it apart from the API
 * (`WEBHOOK_DISPATCHER=false` on the API instances) or want more of it. Any number may run against one
 * database next to any number of servers. It needs DATABASE_URL: the embedded PostgreSQL belongs to the
 * `npm start` that started it.
 */
import { EnvError, parseEnv } from './config/env';
import { createDatabase } from './db/database';
import { migrate } from './db/migrate';
import { DISPATCHER_POOL_MAX, DISPATCHER_SESSION_OPTIONS, startWebhookDispatcher } from './jobs/webhookDispatcher';
import { createLogger } from './logger';
import { startSenderFromEnv } from './notifications/senderFromEnv';

async function main(): Promise<void> {
  const env = parseEnv(process.env);
  if (!env.DATABASE_URL)
    throw new EnvError('Invalid environment variable DATABASE_URL: required by the worker (npm run worker)');
  const log = createLogger(env.LOG_LEVEL);
  const database = createDatabase({
    url: env.DATABASE_URL,
    poolMax: DISPATCHER_POOL_MAX,
    sessionOptions: DISPATCHER_SESSION_OPTIONS,
  });
  // Instances take turns migrating, so a worker may start before any server.
  await migrate(database, env.DATABASE_URL, log.warn);
  const dispatcher = startWebhookDispatcher({
    database,
    log,
    allowPrivateUrls: env.WEBHOOK_ALLOW_PRIVATE_URLS,
    pollMs: env.WEBHOOK_POLL_MS,
  });
  // A pool of its own, without the dispatcher's deferred commits: a waiting visitor's links must be on disk
  // before the message that carries them leaves.
  const notifierDatabase = env.NOTIFICATION_SENDER ? createDatabase({ url: env.DATABASE_URL, poolMax: 2 }) : undefined;
  const notifier = notifierDatabase ? startSenderFromEnv({ env, database: notifierDatabase, log }) : undefined;
  log.info('webhook worker started', { pollMs: env.WEBHOOK_POLL_MS });
  process.stdout.write('Gatehouse webhook worker running\n');

  let stopping = false;
  const shutdown = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    log.info('webhook worker stopping', { signal });
    await dispatcher.stop();
    await notifier?.stop();
    await notifierDatabase?.close();
    await database.close();
    log.info('webhook worker stopped', { attempts: dispatcher.stats() });
    process.exit(0);
  };
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  process.on('SIGINT', () => void shutdown('SIGINT'));
}

main().catch((error: unknown) => {
  if (error instanceof EnvError) {
    process.stderr.write(`${error.message}\n`);
  } else {
    process.stderr.write(
      `Gatehouse worker failed to start: ${error instanceof Error ? error.message : String(error)}\n`,
    );
  }
  process.exit(1);
});
