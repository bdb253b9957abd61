/**
 * npm run bench:webhooks — what webhook delivery costs the write path. Creates person check-ins against the
 * real server (its dispatcher runs in its own thread, as with `npm start`) with no active subscription,
 * then with 3 active subscriptions whose receivers (loopback, answering 200, in a process of their own at
 * the lowest CPU priority) get every event, in interleaved back-to-back pairs of rounds of the same run.
 * Target: throughput with 3 subscriptions ≥ 90% of none. After each subscribed round it waits until every
 * event of that round has reached all 3 receivers, so the next round does not pay for deliveries left
 * over, and reports how long that took and the delivery latency (event createdAt → receipt).
 */
import { type ChildProcess, fork } from 'node:child_process';
import os from 'node:os';
import { once } from 'node:events';
import type { CreatedWebhookSubscription } from '../shared/src/schemas/webhooks';
import { buildWorld } from '../test/support/factories';
import { spawnServer } from '../test/support/serverProcess';
import { percentiles, printTable, runBench, startBenchDatabase, writeResults } from './harness';
import { type LoadResult, closedLoop } from './load';
import { listenRaw } from './rawHttp';

// Per connection count: ROUNDS pairs (none, 3 subscriptions) of DURATION_MS / ROUNDS each, alternating order.
const DURATION_MS = Number(process.env.BENCH_SECONDS ?? 12) * 1000;
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 6);
const CONNECTIONS = [1, 8, 32];
const SUBSCRIPTIONS = 3;
const DRAIN_TIMEOUT_MS = 120_000;

/** What the receivers' process reports: requests received, and delivery latencies since the last report. */
interface ReceiverReport {
  urls: string[];
  count: number;
  latencies: number[];
}

/**
 * Receivers mode: SUBSCRIPTIONS loopback servers answering 200 at once, counting what they get. They stand
 * for a subscriber's servers, which would be on other machines, so they take as little of the shared cores
 * as they can: lean HTTP/1.1 servers (bench/rawHttp.ts, a fraction of what Node's http server costs per
 * request; the tests' receivers are real http servers that verify signatures), at the lowest CPU priority.
 */
async function runReceivers(): Promise<void> {
  os.setPriority(19);
  let count = 0;
  let latencies: number[] = [];
  const urls: string[] = [];
  for (let i = 0; i < SUBSCRIPTIONS; i += 1) {
    const server = await listenRaw((message) => {
      count += 1;
      const payload = JSON.parse(message.body.toString('utf8')) as { createdAt: string };
      latencies.push(Date.now() - Date.parse(payload.createdAt));
    });
    const address = server.address();
    urls.push(`http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}/hook`);
  }
  process.on('message', () => {
    process.send?.({ urls, count, latencies } satisfies ReceiverReport);
    latencies = [];
  });
  process.send?.({ urls, count, latencies: [] } satisfies ReceiverReport);
}

/** The receivers run in a process of their own, as a subscriber's servers would, not in the load generator's event loop. */
async function startReceivers(): Promise<{ child: ChildProcess; report: () => Promise<ReceiverReport> }> {
  const child = fork(new URL(import.meta.url).pathname, ['receivers'], { execArgv: ['--import', 'tsx'] });
  const [first] = (await once(child, 'message')) as [ReceiverReport];
  void first;
  return {
    child,
    report: async () => {
      child.send('report');
      const [answer] = (await once(child, 'message')) as [ReceiverReport];
      return answer;
    },
  };
}

/** The median of a list of numbers. */
function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? (sorted[middle] ?? Number.NaN) : ((sorted[middle - 1] ?? 0) + (sorted[middle] ?? 0)) / 2;
}

function merge(results: LoadResult[]): LoadResult {
  const mean = (pick: (result: LoadResult) => number) =>
    results.reduce((sum, result) => sum + pick(result), 0) / results.length;
  return {
    requests: results.reduce((sum, result) => sum + result.requests, 0),
    perSecond: mean((result) => result.perSecond),
    p50: mean((result) => result.p50),
    p99: mean((result) => result.p99),
    unexpected: results.reduce((sum, result) => sum + result.unexpected, 0),
  };
}

async function main(): Promise<void> {
  const database = await startBenchDatabase('gatehouse_bench_webhooks');
  const receivers = await startReceivers();
  const { urls } = await receivers.report();
  const server = await spawnServer({
    DATABASE_URL: database.url,
    SEED_DEMO: 'false',
    DB_POOL_MAX: '20',
    WEBHOOK_ALLOW_PRIVATE_URLS: 'true',
    // A load test, not a client: the per-token limit (600/min) would refuse it.
    RATE_LIMIT_PER_MINUTE: '1000000000',
  });
  try {
    const world = await buildWorld({ database: database.database, baseUrl: server.baseUrl });
    const subscriptions: CreatedWebhookSubscription[] = [];
    for (const url of urls) {
      const created = await world.api.post<CreatedWebhookSubscription>('/v1/webhooks/subscriptions', {
        url,
        events: ['PERSON_CHECKIN_ENTERED'],
      });
      if (created.status !== 201) throw new Error(`subscription not created: ${created.text}`);
      subscriptions.push(created.body);
    }
    const setEnabled = async (enabled: boolean) => {
      for (const subscription of subscriptions) {
        const response = await world.api.patch(`/v1/webhooks/subscriptions/${subscription.subscriptionId}`, {
          enabled,
        });
        if (response.status !== 200) throw new Error(`subscription not updated: ${response.text}`);
      }
    };
    const path = `/v1/sites/${world.siteId}/checkins/people`;
    const auth = { Authorization: `Bearer ${world.token}` };
    const next = (index: number) => ({
      method: 'POST',
      path,
      headers: auth,
      body: JSON.stringify({ person: { firstName: `Hook${index}`, lastName: 'Bench' } }),
    });

    const rows: Array<Record<string, string | number>> = [];
    const results: Record<string, unknown> = {};
    const ratios: number[] = [];
    const pairMedians: number[] = [];
    for (const connections of CONNECTIONS) {
      const none: LoadResult[] = [];
      const three: LoadResult[] = [];
      const drains: number[] = [];
      const latencies: number[] = [];
      const options = {
        baseUrl: server.baseUrl,
        connections,
        durationMs: DURATION_MS / ROUNDS,
        expectStatus: 201,
        next,
      };
      const runWithout = async () => {
        await setEnabled(false);
        none.push(await closedLoop(options));
      };
      const runWith = async () => {
        await setEnabled(true);
        const before = (await receivers.report()).count;
        const result = await closedLoop(options);
        three.push(result);
        const expected = before + SUBSCRIPTIONS * (result.requests - result.unexpected);
        const started = Date.now();
        for (let report = await receivers.report(); ; report = await receivers.report()) {
          latencies.push(...report.latencies);
          if (report.count >= expected) break;
          if (Date.now() - started > DRAIN_TIMEOUT_MS)
            throw new Error(`deliveries did not catch up: ${report.count} of ${expected}`);
          await new Promise((resolve) => setTimeout(resolve, 10));
        }
        drains.push(Date.now() - started);
      };
      // Alternate which side goes first, so neither always runs on a warmer (or more tired) machine.
      for (let round = 0; round < ROUNDS; round += 1) {
        if (round % 2 === 0) {
          await runWithout();
          await runWith();
        } else {
          await runWith();
          await runWithout();
        }
      }
      const base = merge(none);
      const hooked = merge(three);
      const ratio = hooked.perSecond / base.perSecond;
      // Each pair ran back to back: its ratio is the least disturbed by whatever else the machine was doing.
      const pairRatios = three.map((result, round) => result.perSecond / (none[round]?.perSecond ?? Number.NaN));
      ratios.push(ratio);
      pairMedians.push(median(pairRatios));
      const delivery = percentiles(latencies);
      results[`create@${connections}`] = {
        none: base,
        threeSubscriptions: hooked,
        ratio,
        pairRatios,
        medianPairRatio: median(pairRatios),
        drainMs: drains,
        deliveryLatencyMs: delivery,
      };
      for (const [name, result] of [
        ['create, no subscription', base],
        [`create, ${SUBSCRIPTIONS} subscriptions`, hooked],
      ] as const) {
        const subscribed = result === hooked;
        rows.push({
          case: name,
          conns: connections,
          'req/s': result.perSecond.toFixed(0),
          'p50 ms': result.p50.toFixed(2),
          'p99 ms': result.p99.toFixed(2),
          'req/s ratio': (result.perSecond / base.perSecond).toFixed(2),
          'median pair ratio': subscribed ? (pairMedians[pairMedians.length - 1] ?? Number.NaN).toFixed(2) : '-',
          errors: result.unexpected,
          'catch-up ms': subscribed ? Math.max(...drains).toFixed(0) : '-',
          'delivery p50/p99 ms': subscribed ? `${delivery.p50.toFixed(0)}/${delivery.p99.toFixed(0)}` : '-',
        });
      }
    }
    printTable(rows);
    process.stdout.write(
      `\nWebhook overhead: create throughput with ${SUBSCRIPTIONS} active subscriptions is ${ratios.map((ratio) => ratio.toFixed(2)).join(' / ')} ` +
        `of none at ${CONNECTIONS.join(' / ')} connections over all rounds (median of back-to-back pairs: ` +
        `${pairMedians.map((ratio) => ratio.toFixed(2)).join(' / ')}); target ≥ 0.90. Every event reached all ${SUBSCRIPTIONS} receivers.\n`,
    );
    await writeResults('webhooks', results);
  } finally {
    server.child.kill('SIGTERM');
    await server.exited;
    receivers.child.kill();
    await database.close();
  }
}

runBench('bench', process.argv[2] === 'receivers' ? runReceivers : main);
