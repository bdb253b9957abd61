import { RequestPool } from './http';
import { type CpuReading, readCpu } from './measure';
import type { FleetSite } from './seed';
import { type FleetContext, SiteClients } from './site';
import { EventClock, FleetStats, type Operation, type WindowReport } from './stats';

/**
 * The fleet's clients, in a process of their own (`fork` from bench/fleet.ts), so their CPU is not the
 * server's: every site's visitor kiosk, gate and console, over raw keep-alive sockets. Driven by messages:
 * `init`, `grow` (start sites up to a count), `window` / `report` (measure), `calibrate`, `stop`.
 */

export type ToClients =
  | { type: 'init'; baseUrl: string; sites: FleetSite[]; maxSockets: number; serverPid: number; postmasterPid: number }
  | { type: 'grow'; count: number; perSecond: number }
  | { type: 'window' }
  | { type: 'report' }
  | { type: 'calibrate'; perOperation: number; concurrency: number }
  | { type: 'stop' };

/** CPU of the server and of PostgreSQL per request of one operation, in milliseconds. */
export interface UnitCost {
  operation: Operation;
  requests: number;
  serverMs: number;
  postgresMs: number;
}

export type FromClients =
  | { type: 'ready' }
  | { type: 'grown'; streamsOpen: number }
  | { type: 'report'; report: WindowReport & { eventsMissing: number } }
  | { type: 'calibrated'; idle: { serverMsPerSecond: number; postgresMsPerSecond: number }; costs: UnitCost[] };

const send = (message: FromClients) => process.send?.(message);

let fleet: FleetContext | undefined;
let sites: FleetSite[] = [];
const started: SiteClients[] = [];
let paused = false;
let pids = { server: 0, postmaster: 0 };

async function grow(count: number, perSecond: number): Promise<void> {
  if (!fleet) throw new Error('grow before init');
  const context = fleet;
  const target = Math.min(count, sites.length);
  while (started.length < target) {
    const batch = sites.slice(
      started.length,
      Math.min(target, started.length + Math.max(1, Math.round(perSecond / 10))),
    );
    for (const site of batch) {
      const clients = new SiteClients(site, context);
      clients.start();
      started.push(clients);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  // Until (nearly) every stream is open: three per site.
  const deadline = Date.now() + 120_000;
  while (context.streams.open < target * 3 * 0.999 && Date.now() < deadline)
    await new Promise((resolve) => setTimeout(resolve, 250));
  send({ type: 'grown', streamsOpen: context.streams.open });
}

/** Runs `tasks` `concurrency` at a time. */
async function runAll(tasks: Array<() => Promise<unknown>>, concurrency: number): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < tasks.length) {
        const task = tasks[next++];
        await task?.();
      }
    }),
  );
}

const cpuSince = (before: CpuReading) => {
  const now = readCpu(pids.server, pids.postmaster);
  return {
    seconds: (now.at - before.at) / 1000,
    server: now.serverMs - before.serverMs,
    postgres: now.postgresMs - before.postgresMs,
  };
};

/**
 * What each operation costs the server and PostgreSQL: with the fleet paused (streams open, no timer or
 * event makes a request), `perOperation` requests of one operation at a time, their CPU less what the
 * paused fleet costs anyway (keep-alives, access checks) over the same time.
 */
async function calibrate(perOperation: number, concurrency: number): Promise<void> {
  paused = true;
  await new Promise((resolve) => setTimeout(resolve, 5_000));
  // The quietest of a few windows: autovacuum, a checkpoint or the last requests of the load may land in one.
  let idleRate = { server: Number.POSITIVE_INFINITY, postgres: Number.POSITIVE_INFINITY };
  for (let window = 0; window < 5; window += 1) {
    const start = readCpu(pids.server, pids.postmaster);
    await new Promise((resolve) => setTimeout(resolve, 2_000));
    const idle = cpuSince(start);
    const rate = { server: idle.server / idle.seconds, postgres: idle.postgres / idle.seconds };
    if (rate.server + rate.postgres < idleRate.server + idleRate.postgres) idleRate = rate;
  }
  const costs: UnitCost[] = [];
  const pool = started.slice(0, Math.max(1, Math.min(started.length, 2_000)));
  const on = (index: number) => pool[index % pool.length] as SiteClients;
  const measure = async (operation: Operation, tasks: Array<() => Promise<unknown>>) => {
    if (tasks.length === 0) return;
    const before = readCpu(pids.server, pids.postmaster);
    await runAll(tasks, concurrency);
    const used = cpuSince(before);
    costs.push({
      operation,
      requests: tasks.length,
      serverMs: Math.max(0, used.server - idleRate.server * used.seconds) / tasks.length,
      postgresMs: Math.max(0, used.postgres - idleRate.postgres * used.seconds) / tasks.length,
    });
  };
  const times = (run: (clients: SiteClients) => Promise<unknown>) =>
    Array.from({ length: perOperation }, (_, index) => () => run(on(index)));
  const pendingPeople: Array<{ clients: SiteClients; checkinId: number }> = [];
  await measure(
    'visitor.create',
    times(async (clients) => {
      const created = await clients.arrive();
      if (created?.status === 'PENDING') pendingPeople.push({ clients, checkinId: Number(created.checkinId) });
    }),
  );
  await measure(
    'visitor.feed',
    times((clients) => clients.pullFeed()),
  );
  await measure(
    'visitor.break',
    times((clients) => clients.personAction('breaks/start', ['IN'])),
  );
  await measure(
    'visitor.breakEnd',
    times((clients) => clients.personAction('breaks/end', ['ON_BREAK'])),
  );
  await measure(
    'visitor.checkout',
    times((clients) => clients.personAction('checkout', ['IN', 'ON_BREAK'])),
  );
  await measure(
    'visitor.heartbeat',
    times((clients) => clients.heartbeat('visitor')),
  );
  await measure(
    'visitor.config',
    times((clients) => clients.call('visitor.config', 'GET', `/v1/sites/${clients.siteId}/checkins/people/config`)),
  );
  await measure(
    'gate.entry',
    times((clients) => clients.enter()),
  );
  const reads = pool.flatMap((clients) =>
    clients
      .vehiclesIn('IN')
      .slice(0, 1)
      .map((id) => ({ clients, id })),
  );
  await measure(
    'gate.read',
    reads.slice(0, perOperation).map(
      ({ clients, id }) =>
        () =>
          clients.call('gate.read', 'GET', `/v1/sites/${clients.siteId}/checkins/vehicles/${id}`),
    ),
  );
  const pendingCars = pool.flatMap((clients) => clients.vehiclesIn('PENDING').map((id) => ({ clients, id })));
  await measure(
    'gate.admit',
    pendingCars.slice(0, perOperation).map(
      ({ clients, id }) =>
        () =>
          clients.admit(id),
    ),
  );
  await measure(
    'gate.exit',
    times((clients) => clients.leave()),
  );
  await measure(
    'gate.list',
    times((clients) =>
      clients.call('gate.list', 'GET', `/v1/sites/${clients.siteId}/checkins/vehicles?status=IN,PENDING&limit=200`),
    ),
  );
  await measure(
    'gate.vehicleFeed',
    times((clients) => clients.pullVehicleFeed()),
  );
  const people = pool.flatMap((clients) =>
    clients
      .peopleIn('IN')
      .slice(0, 1)
      .map((id) => ({ clients, id })),
  );
  await measure(
    'console.read',
    people.slice(0, perOperation).map(
      ({ clients, id }) =>
        () =>
          clients.call('console.read', 'GET', `/v1/sites/${clients.siteId}/checkins/people/${id}`),
    ),
  );
  await measure(
    'console.approve',
    pendingPeople.slice(0, perOperation).map(
      ({ clients, checkinId }) =>
        () =>
          clients.call(
            'console.approve',
            'POST',
            `/v1/sites/${clients.siteId}/checkins/people/${checkinId}/approve`,
            {},
          ),
    ),
  );
  await measure(
    'console.alerts',
    times((clients) => clients.call('console.alerts', 'GET', `/v1/alerts?siteIds=${clients.siteId}&limit=50`)),
  );
  paused = false;
  send({
    type: 'calibrated',
    idle: { serverMsPerSecond: idleRate.server, postgresMsPerSecond: idleRate.postgres },
    costs,
  });
}

process.on('message', (message: ToClients) => {
  if (message.type === 'init') {
    const url = new URL(message.baseUrl);
    sites = message.sites;
    pids = { server: message.serverPid, postmaster: message.postmasterPid };
    const stats = new FleetStats();
    fleet = {
      pool: new RequestPool(url.hostname, Number(url.port), message.maxSockets),
      host: url.hostname,
      port: Number(url.port),
      origin: url.origin,
      stats,
      running: () => !paused,
      writes: new EventClock(stats),
      streams: { open: 0 },
    };
    send({ type: 'ready' });
  } else if (message.type === 'grow') {
    void grow(message.count, message.perSecond);
  } else if (message.type === 'window') {
    fleet?.stats.reset();
    if (fleet) fleet.pool.maxQueuedMs = 0;
    fleet?.writes.clear();
  } else if (message.type === 'report' && fleet) {
    // A write 10 s old whose event has not reached its console is a lost event.
    const missing = fleet.writes.missing(10_000);
    send({
      type: 'report',
      report: { ...fleet.stats.report(fleet.streams.open, fleet.pool.maxQueuedMs), eventsMissing: missing },
    });
  } else if (message.type === 'calibrate') {
    void calibrate(message.perOperation, message.concurrency);
  } else if (message.type === 'stop') {
    for (const clients of started) clients.stop();
    fleet?.pool.close();
    process.exit(0);
  }
});
