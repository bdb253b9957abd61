import { type ChildProcess, fork } from 'node:child_process';
import { once } from 'node:events';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createDatabase } from '../server/src/db/database';
import { ensureDatabase } from '../server/src/db/database';
import { startEmbeddedPostgres, withDatabase } from '../server/src/db/embeddedPostgres';
import { migrate } from '../server/src/db/migrate';
import { spawnServer } from '../test/support/serverProcess';
import type { FromClients, ToClients, UnitCost } from './fleet/clients';
import { machineLoad, readCpu, residentBytes } from './fleet/measure';
import { printCapacity, printShares, type StepResult } from './fleet/report';
import { seedFleet } from './fleet/seed';
import { envNumber, runBench, writeResults } from './harness';

/**
 * `npm run bench:fleet` (bench/README.md): sites, each with a visitor kiosk, a gate kiosk and an open
 * console that follow the event stream, at the morning peak; the number of sites ramps up step by step
 * until p99 reaches 250 ms or a request fails. Reports the most sites that held, each client kind's share
 * of requests and of the server's and PostgreSQL's CPU, and the server's memory per open stream.
 */
const STEPS = (process.env.BENCH_FLEET_STEPS ?? '500,1000,2000,3000,4000,5000')
  .split(',')
  .map((step) => Number(step.trim()))
  .filter((step) => step > 0);
const SETTLE_SECONDS = envNumber('BENCH_FLEET_SETTLE_SECONDS', 20);
const WINDOW_SECONDS = envNumber('BENCH_FLEET_WINDOW_SECONDS', 60);
const SITES_PER_SECOND = envNumber('BENCH_FLEET_SITES_PER_SECOND', 50);
const SITES_PER_ACCOUNT = envNumber('BENCH_FLEET_SITES_PER_ACCOUNT', 10);
const CALIBRATE_REQUESTS = envNumber('BENCH_FLEET_CALIBRATE_REQUESTS', 300);
const KEEP_GOING = process.env.BENCH_FLEET_KEEP_GOING === '1';
const P99_LIMIT_MS = 250;

const out = (text: string) => process.stdout.write(text);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The load generator's process and the next message of a type from it. */
function startClients(): {
  child: ChildProcess;
  next: <T extends FromClients['type']>(type: T) => Promise<Extract<FromClients, { type: T }>>;
} {
  const child = fork(new URL('./fleet/clients.ts', import.meta.url).pathname, [], {
    execArgv: ['--import', 'tsx'],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const next = <T extends FromClients['type']>(type: T) =>
    new Promise<Extract<FromClients, { type: T }>>((resolve) => {
      const listen = (message: FromClients) => {
        if (message.type !== type) return;
        child.off('message', listen);
        resolve(message as Extract<FromClients, { type: T }>);
      };
      child.on('message', listen);
    });
  return { child, next };
}

/** `nodejs_heap_size_used_bytes` from the server's /metrics. */
async function heapUsed(baseUrl: string): Promise<number> {
  const text = await (await fetch(`${baseUrl}/metrics`)).text();
  return Number(/^nodejs_heap_size_used_bytes (\S+)/m.exec(text)?.[1] ?? Number.NaN);
}

/** Its own PostgreSQL, stopped (and its data removed) however the run ends: a failure, Ctrl-C or SIGTERM. */
async function main(): Promise<void> {
  const dataDir = path.join(os.tmpdir(), `gatehouse-bench-fleet-${process.pid}`);
  const postgres = await startEmbeddedPostgres({
    dataDir,
    ephemeral: true,
    flags: ['-c', 'shared_buffers=256MB'],
  });
  const stopAll = () => {
    for (const child of children) child.kill('SIGKILL');
    void postgres.stop().finally(() => process.exit(130));
  };
  process.once('SIGINT', stopAll);
  process.once('SIGTERM', stopAll);
  try {
    const postmasterPid = Number(fs.readFileSync(path.join(dataDir, 'pg', 'postmaster.pid'), 'utf8').split('\n')[0]);
    await run(postgres.url, postmasterPid);
  } finally {
    for (const child of children) if (child.exitCode === null) child.kill('SIGKILL');
    await postgres.stop();
  }
}

/** The processes the run started (the server, the clients), for a run cut short. */
const children: ChildProcess[] = [];

async function run(serverUrl: string, postmasterPid: number): Promise<void> {
  await ensureDatabase(serverUrl, 'gatehouse_fleet');
  const url = withDatabase(serverUrl, 'gatehouse_fleet');
  const database = createDatabase({ url, poolMax: 4 });
  const most = Math.max(...STEPS);
  out(`Seeding ${most} sites (${SITES_PER_ACCOUNT} a account)… `);
  const seeded = performance.now();
  await migrate(database, url);
  const sites = await seedFleet(database, {
    sites: most,
    sitesPerAccount: SITES_PER_ACCOUNT,
    approvalShare: 0.1,
    platesPerSite: 8,
    peopleOnSite: 10,
    vehiclesOnSite: 3,
  });
  await database.close();
  out(`${((performance.now() - seeded) / 1000).toFixed(0)} s\n`);

  // BENCH_FLEET_PROFILE=1: a V8 CPU profile of the server, written to bench/results/ when it stops.
  const profile = process.env.BENCH_FLEET_PROFILE === '1' ? ['--cpu-prof', '--cpu-prof-dir=bench/results'] : [];
  const server = await spawnServer(
    { DATABASE_URL: url, SEED_DEMO: 'false', LOG_LEVEL: 'warn', DB_POOL_MAX: '20' },
    60_000,
    profile,
  );
  const serverPid = server.child.pid ?? 0;
  const clients = startClients();
  children.push(server.child, clients.child);
  const results: StepResult[] = [];
  let restMsPerSecond = 0;
  let costs: { idle: { serverMsPerSecond: number; postgresMsPerSecond: number }; costs: UnitCost[] } | undefined;
  try {
    const send = (message: ToClients) => clients.child.send(message);
    send({ type: 'init', baseUrl: server.baseUrl, sites, maxSockets: 1024, serverPid, postmasterPid });
    await clients.next('ready');
    await sleep(2_000);
    const base = { rss: residentBytes(serverPid), heap: await heapUsed(server.baseUrl) };
    // What the server and PostgreSQL use with no client at all (the dispatcher's polls, autovacuum…).
    const restStart = readCpu(serverPid, postmasterPid);
    await sleep(5_000);
    const restEnd = readCpu(serverPid, postmasterPid);
    restMsPerSecond =
      (restEnd.serverMs - restStart.serverMs + restEnd.postgresMs - restStart.postgresMs) /
      ((restEnd.at - restStart.at) / 1000);
    out(`Server at rest: ${(base.rss / 2 ** 20).toFixed(0)} MiB resident. Machine: ${JSON.stringify(machineLoad())}\n`);
    for (const step of STEPS) {
      out(`\n${step} sites: opening streams… `);
      const grown = clients.next('grown');
      send({ type: 'grow', count: step, perSecond: SITES_PER_SECOND });
      const { streamsOpen } = await grown;
      out(`${streamsOpen} open; settling ${SETTLE_SECONDS} s… `);
      await sleep(SETTLE_SECONDS * 1000);
      const memory = { rss: residentBytes(serverPid), heap: await heapUsed(server.baseUrl) };
      send({ type: 'window' });
      const before = readCpu(serverPid, postmasterPid);
      const loadBefore = machineLoad().load1;
      await sleep(WINDOW_SECONDS * 1000);
      const reported = clients.next('report');
      send({ type: 'report' });
      const { report } = await reported;
      const after = readCpu(serverPid, postmasterPid);
      const seconds = (after.at - before.at) / 1000;
      const result: StepResult = {
        sites: step,
        report,
        serverCpu: (after.serverMs - before.serverMs) / 1000 / seconds,
        postgresCpu: (after.postgresMs - before.postgresMs) / 1000 / seconds,
        generatorCpu: report.generatorCpuMs / 1000 / report.seconds,
        load1: Math.max(loadBefore, machineLoad().load1),
        rssBytes: memory.rss,
        heapBytes: memory.heap,
        baseRssBytes: base.rss,
        baseHeapBytes: base.heap,
        passed: report.p99 < P99_LIMIT_MS && report.errors === 0 && report.eventsMissing === 0,
      };
      results.push(result);
      out(
        `p99 ${report.p99.toFixed(1)} ms, ${report.requests} requests, ${report.errors} errors, server ${(result.serverCpu * 100).toFixed(0)} % + PostgreSQL ${(result.postgresCpu * 100).toFixed(0)} % of a core, load ${result.load1.toFixed(1)}: ${result.passed ? 'held' : 'FAILED'}\n`,
      );
      if (report.errorSamples.length > 0) out(`  errors: ${report.errorSamples.join(' | ')}\n`);
      if (!result.passed && !KEEP_GOING) break;
    }
    if (CALIBRATE_REQUESTS > 0) {
      out(`\nCalibrating the cost of each request (${CALIBRATE_REQUESTS} of each, the fleet paused)… `);
      const calibrated = clients.next('calibrated');
      send({ type: 'calibrate', perOperation: CALIBRATE_REQUESTS, concurrency: 16 });
      costs = await calibrated;
      out('done\n');
    }
    send({ type: 'stop' });
  } finally {
    if (clients.child.exitCode === null) clients.child.kill('SIGKILL');
    server.child.kill('SIGTERM');
    await once(server.child, 'exit');
  }
  out('\n');
  printCapacity(results, P99_LIMIT_MS);
  const best = [...results].reverse().find((result) => result.passed) ?? results.at(-1);
  if (best && costs) printShares(best, costs, restMsPerSecond);
  const file = await writeResults('fleet', {
    steps: STEPS,
    windowSeconds: WINDOW_SECONDS,
    results,
    costs,
    restMsPerSecond,
  });
  out(`\nResults: ${file}\n`);
}

runBench('bench:fleet', main);
