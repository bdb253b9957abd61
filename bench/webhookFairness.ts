/**
 * npm run bench:fairness — whether one tenant's slow receivers delay another tenant's webhooks. A quiet
 * account (one subscription, a receiver answering at once) creates a check-in every QUIET_EVERY_MS; its
 * delivery latency (event createdAt → receipt) is measured alone, then while a noisy account with
 * NOISY_SUBSCRIPTIONS subscriptions (each a receiver of its own answering after SLOW_MS) creates events
 * far faster than those receivers can take them. Reported: the quiet latency with the neighbour as a ratio
 * to without (target < 2: the neighbour costs the quiet account CPU at most, never a place in its queue).
 * Settings (env): BENCH_SECONDS per phase (20), BENCH_SLOW_MS (9000), BENCH_NOISY_SUBSCRIPTIONS (20).
 */
import { once } from 'node:events';
import http from 'node:http';
import { buildWorld } from '../test/support/factories';
import { spawnServer } from '../test/support/serverProcess';
import { envNumber, percentiles, printTable, runBench, startBenchDatabase, writeResults } from './harness';

const PHASE_MS = envNumber('BENCH_SECONDS', 20) * 1000;
const SLOW_MS = envNumber('BENCH_SLOW_MS', 9000);
const NOISY_SUBSCRIPTIONS = envNumber('BENCH_NOISY_SUBSCRIPTIONS', 20);
const QUIET_EVERY_MS = 500;
/** The noisy account's events per second: each makes NOISY_SUBSCRIPTIONS attempts of SLOW_MS. */
const NOISY_PER_SECOND = 4;
const TARGET = 2;

/** A receiver on a port of its own answering 200 after `delayMs`; `onBody` sees each request's body. */
async function listen(delayMs: number, onBody: (body: string) => void): Promise<{ url: string; server: http.Server }> {
  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      onBody(Buffer.concat(chunks).toString('utf8'));
      setTimeout(() => response.writeHead(200).end(), delayMs);
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const address = server.address();
  return { url: `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}/hook`, server };
}

/** Sends `send` every `everyMs` until `durationMs` has passed (not waiting for one to finish to start the next). */
async function every(everyMs: number, durationMs: number, send: (index: number) => Promise<void>): Promise<void> {
  const sent: Array<Promise<void>> = [];
  const end = Date.now() + durationMs;
  for (let index = 0; Date.now() < end; index += 1) {
    sent.push(send(index));
    await new Promise((resolve) => setTimeout(resolve, everyMs));
  }
  await Promise.all(sent);
}

async function main(): Promise<void> {
  const database = await startBenchDatabase('gatehouse_bench_fairness');
  const quietLatencies: number[] = [];
  let noisyReceived = 0;
  const quiet = await listen(0, (body) =>
    quietLatencies.push(Date.now() - Date.parse((JSON.parse(body) as { createdAt: string }).createdAt)),
  );
  const slow = await Promise.all(
    Array.from({ length: NOISY_SUBSCRIPTIONS }, () => listen(SLOW_MS, () => (noisyReceived += 1))),
  );
  const server = await spawnServer({
    DATABASE_URL: database.url,
    SEED_DEMO: 'false',
    WEBHOOK_ALLOW_PRIVATE_URLS: 'true',
    RATE_LIMIT_PER_MINUTE: '1000000000',
  });
  try {
    const quietWorld = await buildWorld({ database: database.database, baseUrl: server.baseUrl });
    const noisyWorld = await buildWorld({ database: database.database, baseUrl: server.baseUrl });
    const subscribe = async (world: typeof quietWorld, url: string) => {
      const response = await world.api.post('/v1/webhooks/subscriptions', { url, events: ['PERSON_CHECKIN_ENTERED'] });
      if (response.status !== 201) throw new Error(`subscription not created: ${response.text}`);
    };
    await subscribe(quietWorld, quiet.url);
    for (const receiver of slow) await subscribe(noisyWorld, receiver.url);
    const create = async (world: typeof quietWorld, name: string) => {
      const response = await world.api.post(`/v1/sites/${world.siteId}/checkins/people`, {
        person: { firstName: name, lastName: 'Fairness' },
      });
      if (response.status !== 201) throw new Error(`create failed: ${response.text}`);
    };
    const quietPhase = async () => {
      quietLatencies.length = 0;
      await every(QUIET_EVERY_MS, PHASE_MS, (index) => create(quietWorld, `Quiet${index}`));
      const expected = Math.floor(PHASE_MS / QUIET_EVERY_MS);
      const deadline = Date.now() + 120_000;
      while (quietLatencies.length < expected && Date.now() < deadline)
        await new Promise((resolve) => setTimeout(resolve, 50));
      return [...quietLatencies];
    };

    const alone = await quietPhase();
    let noisyEvents = 0;
    const noise = every(1000 / NOISY_PER_SECOND, PHASE_MS, async (index) => {
      await create(noisyWorld, `Noisy${index}`);
      noisyEvents += 1;
    });
    const neighboured = await quietPhase();
    await noise;

    const a = percentiles(alone);
    const b = percentiles(neighboured);
    const ratio = b.p50 / Math.max(1, a.p50);
    printTable([
      {
        case: 'quiet account alone',
        deliveries: alone.length,
        'p50 ms': a.p50.toFixed(0),
        'p99 ms': a.p99.toFixed(0),
        'max ms': Math.max(...alone).toFixed(0),
      },
      {
        case: `with a noisy neighbour (${NOISY_SUBSCRIPTIONS} receivers × ${SLOW_MS} ms)`,
        deliveries: neighboured.length,
        'p50 ms': b.p50.toFixed(0),
        'p99 ms': b.p99.toFixed(0),
        'max ms': Math.max(...neighboured).toFixed(0),
      },
    ]);
    process.stdout.write(
      `\nWebhook fairness: a quiet account's delivery latency with a noisy neighbour is ${ratio.toFixed(2)} × its latency alone (p50; ` +
        `p99 ${(b.p99 / Math.max(1, a.p99)).toFixed(2)} ×); target < ${TARGET}. The neighbour made ${noisyEvents} events ` +
        `(${noisyEvents * NOISY_SUBSCRIPTIONS} attempts owed), its receivers got ${noisyReceived} meanwhile.\n`,
    );
    await writeResults('fairness', {
      alone: a,
      neighboured: b,
      ratio,
      p99Ratio: b.p99 / Math.max(1, a.p99),
      noisyEvents,
      noisyReceived,
      slowMs: SLOW_MS,
      noisySubscriptions: NOISY_SUBSCRIPTIONS,
    });
  } finally {
    // The noisy backlog is not waited for: the server is killed, the database thrown away.
    server.child.kill('SIGKILL');
    await server.exited;
    for (const receiver of [quiet, ...slow]) receiver.server.closeAllConnections();
    await database.close();
  }
}

runBench('bench:fairness', main);
