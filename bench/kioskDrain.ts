/**
 * npm run bench:kiosk: how fast the kiosk drains its outbox. 1,000 queued actions over 200 check-ins
 * (check in, break, end break, break, check out) are synced to a local server by the real engine
 * (Dexie on fake-indexeddb, idempotency keys, per-visit order), and the same requests are sent by a
 * plain fetch client with the same concurrency and the same per-visit order. Reported as actions per
 * second and as the engine's ratio to the plain client in the same run (target > 0.7).
 */
// First: Dexie's live queries need a global IndexedDB when Dexie is first imported.
import 'fake-indexeddb/auto';
import { randomUUID } from 'node:crypto';
import { IDBKeyRange, indexedDB } from 'fake-indexeddb';
import { type Kiosk, openKiosk } from '../kiosk/src/kiosk';
import { testNetwork, testPlatform } from '../kiosk/src/platform/testPlatform';
import { buildSite, buildToken, buildWorld } from '../test/support/factories';
import { spawnServer } from '../test/support/serverProcess';
import { type BenchDatabase, printTable, runBench, startBenchDatabase, writeResults } from './harness';

const VISITS = Number(process.env.BENCH_VISITS ?? 200);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 8);
const STEPS = ['breakStart', 'breakEnd', 'breakStart', 'checkout'] as const;
const ACTIONS = VISITS * (1 + STEPS.length);

interface Target {
  baseUrl: string;
  siteId: number;
  token: string;
}

async function freshSite(database: BenchDatabase, baseUrl: string, accountId: number): Promise<Target> {
  const site = await buildSite({ database: database.database, baseUrl }, accountId);
  const token = await buildToken(
    { database: database.database, baseUrl },
    { accountId, siteIds: [site.siteId], channel: 'KIOSK', mode: 'visitor' },
  );
  return { baseUrl, siteId: site.siteId, token: token.token };
}

/** The engine: queue everything offline (not timed), then time from start to an empty outbox. */
async function drainWithEngine(target: Target): Promise<number> {
  const network = testNetwork({ online: false });
  const kiosk: Kiosk = openKiosk({
    platform: testPlatform({ network }),
    databaseName: `bench-${randomUUID()}`,
    databaseOptions: { indexedDB, IDBKeyRange },
    serverUrl: target.baseUrl,
    token: target.token,
    siteId: target.siteId,
    mode: 'visitor',
    sync: { concurrency: CONCURRENCY },
  });
  for (let index = 0; index < VISITS; index += 1) {
    const created = await kiosk.checkIn({ person: { firstName: `Bench${index}`, lastName: 'Kiosk' } });
    if (!created.ok) throw new Error(created.message);
    for (const step of STEPS) {
      const id = created.value.visitId;
      const done = await (step === 'checkout'
        ? kiosk.checkOut(id)
        : step === 'breakStart'
          ? kiosk.startBreak(id)
          : kiosk.endBreak(id));
      if (!done.ok) throw new Error(done.message);
    }
  }
  network.setOnline(true);
  const start = performance.now();
  kiosk.start();
  await kiosk.engine.idle();
  while ((await kiosk.db.outbox.count()) > 0) await kiosk.engine.syncNow();
  const seconds = (performance.now() - start) / 1000;
  await kiosk.close();
  return ACTIONS / seconds;
}

/** The baseline: the same requests, keys and order per visit, by a plain fetch client. */
async function drainWithFetch(target: Target): Promise<number> {
  const headers = { Authorization: `Bearer ${target.token}`, 'Content-Type': 'application/json' };
  const people = `${target.baseUrl}/v1/sites/${target.siteId}/checkins/people`;
  const send = async (method: string, url: string, body: unknown) => {
    const response = await fetch(url, {
      method,
      headers: { ...headers, 'Idempotency-Key': randomUUID() },
      body: JSON.stringify(body),
    });
    const payload = (await response.json()) as { checkinId: number };
    if (response.status >= 300) throw new Error(`${method} ${url}: ${response.status}`);
    return payload;
  };
  const at = () => ({ occurredAt: new Date().toISOString() });
  let nextVisit = 0;
  const worker = async () => {
    for (let index = nextVisit++; index < VISITS; index = nextVisit++) {
      const { checkinId } = await send('POST', people, {
        person: { firstName: `Plain${index}`, lastName: 'Client' },
        ...at(),
      });
      for (const step of STEPS) {
        if (step === 'checkout') await send('PATCH', `${people}/${checkinId}`, at());
        else await send('POST', `${people}/${checkinId}/breaks/${step === 'breakStart' ? 'start' : 'end'}`, at());
      }
    }
  };
  const start = performance.now();
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
  return ACTIONS / ((performance.now() - start) / 1000);
}

const mean = (values: number[]) => values.reduce((sum, value) => sum + value, 0) / values.length;

async function main(): Promise<void> {
  const database = await startBenchDatabase('gatehouse_bench_kiosk');
  const server = await spawnServer({
    DATABASE_URL: database.url,
    SEED_DEMO: 'false',
    DB_POOL_MAX: '20',
    RATE_LIMIT_PER_MINUTE: '10000000',
  });
  try {
    const world = await buildWorld({ database: database.database, baseUrl: server.baseUrl });
    // A warm-up round of each, untimed: JIT, connection pools and Postgres caches.
    await drainWithFetch(await freshSite(database, server.baseUrl, world.accountId));
    await drainWithEngine(await freshSite(database, server.baseUrl, world.accountId));
    const plain: number[] = [];
    const engine: number[] = [];
    // Interleaved rounds, so drift in the machine's speed falls on both sides alike.
    for (let round = 0; round < ROUNDS; round += 1) {
      plain.push(await drainWithFetch(await freshSite(database, server.baseUrl, world.accountId)));
      engine.push(await drainWithEngine(await freshSite(database, server.baseUrl, world.accountId)));
    }
    const ratio = mean(engine) / mean(plain);
    printTable([
      {
        client: 'plain fetch (baseline)',
        'actions/s': mean(plain).toFixed(0),
        rounds: plain.map((value) => value.toFixed(0)).join(' / '),
        ratio: '1.00',
      },
      {
        client: 'kiosk sync engine',
        'actions/s': mean(engine).toFixed(0),
        rounds: engine.map((value) => value.toFixed(0)).join(' / '),
        ratio: ratio.toFixed(2),
      },
    ]);
    process.stdout.write(
      `\n${ACTIONS} actions over ${VISITS} check-ins at concurrency ${CONCURRENCY}: the engine drains at ${ratio.toFixed(2)} of the plain client's rate (target > 0.70)\n`,
    );
    await writeResults('kioskDrain', {
      actions: ACTIONS,
      visits: VISITS,
      concurrency: CONCURRENCY,
      plain,
      engine,
      ratio,
    });
  } finally {
    server.child.kill('SIGTERM');
    await server.exited;
    await database.close();
  }
}

runBench('bench', main);
