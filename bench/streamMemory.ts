import { fork } from 'node:child_process';
import { once } from 'node:events';
import http from 'node:http';
import net from 'node:net';
import { createApp } from '../server/src/app';
import { parseEnv } from '../server/src/config/env';
import { LiveEventHub } from '../server/src/live/eventHub';
import { createLogger } from '../server/src/logger';
import { buildWorld } from '../test/support/factories';
import { type BenchDatabase, envNumber, isEntryPoint, runBench, startBenchDatabase } from './harness';

/**
 * `npm run bench:streams`: what one open event stream costs the server in memory, exactly: the app in this
 * process (run with --expose-gc), BENCH_STREAMS streams opened from a child process, the heap and resident
 * memory after full collections before and after. The fleet benchmark sees the same growth, plus what the
 * collector has not yet reclaimed.
 */
const STREAMS = envNumber('BENCH_STREAMS', 2000);
const IDLE_SECONDS = envNumber('BENCH_STREAMS_IDLE_SECONDS', 30);

async function openStreams(port: number, token: string): Promise<void> {
  const sockets: net.Socket[] = [];
  let open = 0;
  for (let index = 0; index < STREAMS; index += 1) {
    const socket = net.connect({ host: '127.0.0.1', port });
    socket.write(`GET /v1/events HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${token}\r\n\r\n`);
    socket.once('data', () => {
      open += 1;
      if (open === STREAMS) process.send?.('open');
    });
    socket.resume();
    socket.on('error', () => undefined);
    sockets.push(socket);
    if (index % 100 === 99) await new Promise((resolve) => setTimeout(resolve, 50));
  }
  process.on('message', () => process.exit(0));
}

async function main(): Promise<void> {
  const gc = (globalThis as { gc?: () => void }).gc;
  if (!gc) throw new Error('run with node --expose-gc (npm run bench:streams does)');
  const database = await startBenchDatabase('gatehouse_bench_streams');
  // Its PostgreSQL stopped however the run ends.
  const stop = () => void database.close().finally(() => process.exit(130));
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
  try {
    await measure(database, gc);
  } finally {
    await database.close();
  }
}

async function measure(database: BenchDatabase, gc: () => void): Promise<void> {
  const log = createLogger('silent');
  const env = parseEnv({ LOG_LEVEL: 'silent', DATABASE_URL: database.url, RATE_LIMIT_PER_MINUTE: '1000000' });
  const liveEvents = new LiveEventHub({ pool: database.database, log });
  const handle = createApp({ database: database.database, env, log, liveEvents }).callback();
  // Koa's handler returns a promise that http.createServer does not wait for (its errors go to Koa's own handler).
  const server = http.createServer((request, response) => void handle(request, response));
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as net.AddressInfo;
  const world = await buildWorld({ database: database.database, baseUrl: `http://127.0.0.1:${port}` });
  const settled = async () => {
    for (let round = 0; round < 4; round += 1) {
      gc();
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    return process.memoryUsage();
  };
  // Warm: the code paths of a stream, run once, so their compiled code is not counted per stream.
  const warm = await fetch(`http://127.0.0.1:${port}/v1/events`, {
    headers: { Authorization: `Bearer ${world.token}` },
  });
  await warm.body?.cancel();
  const before = await settled();
  const clients = fork(new URL(import.meta.url).pathname, ['clients', String(port), world.token], {
    execArgv: ['--import', 'tsx'],
  });
  await once(clients, 'message');
  await new Promise((resolve) => setTimeout(resolve, 1_000));
  const after = await settled();
  const per = (field: 'heapUsed' | 'rss' | 'external') => ((after[field] - before[field]) / STREAMS / 1024).toFixed(1);
  process.stdout.write(
    `${liveEvents.streams} streams open: ${per('heapUsed')} KiB of JS heap and ${per('rss')} KiB resident per stream (${per('external')} KiB external).\n`,
  );
  // What holding them costs the server's CPU while nothing happens: comments, access checks, the reader's polls.
  const idleStart = process.cpuUsage();
  const idleFrom = performance.now();
  await new Promise((resolve) => setTimeout(resolve, IDLE_SECONDS * 1000));
  const used = process.cpuUsage(idleStart);
  const seconds = (performance.now() - idleFrom) / 1000;
  process.stdout.write(
    `Idle for ${seconds.toFixed(0)} s: ${((used.user + used.system) / 1000 / seconds).toFixed(1)} ms of the server's CPU a second for ${liveEvents.streams} streams (comment every ${env.EVENTS_KEEPALIVE_SECONDS} s, access checked every ${env.EVENTS_RECHECK_SECONDS} s, a poll every ${env.EVENTS_POLL_MS} ms).\n`,
  );
  clients.send('stop');
  await once(clients, 'exit');
  liveEvents.close();
  server.closeAllConnections();
  server.close();
}

if (isEntryPoint(import.meta.url)) {
  if (process.argv[2] === 'clients') void openStreams(Number(process.argv[3]), process.argv[4] ?? '');
  else runBench('bench:streams', main);
}
