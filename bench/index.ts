/**
 * npm run bench — throughput and latency of the write paths, each as a ratio to a baseline measured in
 * the same run (these machines are noisy: compare ratios, never absolute numbers across runs).
 * Now: create person check-in with and without Idempotency-Key (the key must cost < 20%).
 */
import fs from 'node:fs/promises';
import { randomUUID } from 'node:crypto';
import { buildWorld } from '../test/support/factories';
import { spawnServer } from '../test/support/serverProcess';
import { printTable, startBenchDatabase } from './harness';
import { type LoadResult, closedLoop } from './load';

const DURATION_MS = Number(process.env.BENCH_SECONDS ?? 5) * 1000;
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const CONNECTIONS = [1, 8, 32];

/** Sums interleaved rounds, so drift in the machine's speed falls on both sides alike. */
function merge(results: LoadResult[]): LoadResult {
  const requests = results.reduce((sum, result) => sum + result.requests, 0);
  return {
    requests,
    perSecond: results.reduce((sum, result) => sum + result.perSecond, 0) / results.length,
    p50: results.reduce((sum, result) => sum + result.p50, 0) / results.length,
    p99: results.reduce((sum, result) => sum + result.p99, 0) / results.length,
    unexpected: results.reduce((sum, result) => sum + result.unexpected, 0),
  };
}

async function main(): Promise<void> {
  const database = await startBenchDatabase('gatehouse_bench');
  // The limiter stays on (its cost is part of the measurement) but never refuses a benchmark.
  const server = await spawnServer({ DATABASE_URL: database.url, SEED_DEMO: 'false', DB_POOL_MAX: '20', RATE_LIMIT_PER_MINUTE: '1000000000' });
  try {
    const world = await buildWorld({ sequelize: database.sequelize, baseUrl: server.baseUrl });
    const path = `/v1/sites/${world.siteId}/checkins/people`;
    const auth = { Authorization: `Bearer ${world.token}` };
    const body = (index: number) => JSON.stringify({ person: { firstName: `Bench${index}`, lastName: 'Visitor' } });
    const plain = (index: number) => ({ method: 'POST', path, headers: auth, body: body(index) });
    const keyed = (index: number) => ({ method: 'POST', path, headers: { ...auth, 'Idempotency-Key': randomUUID() }, body: body(index) });

    const rows: Array<Record<string, string | number>> = [];
    const results: Record<string, unknown> = {};
    for (const connections of CONNECTIONS) {
      const without: LoadResult[] = [];
      const withKey: LoadResult[] = [];
      for (let round = 0; round < ROUNDS; round += 1) {
        const options = { baseUrl: server.baseUrl, connections, durationMs: DURATION_MS / ROUNDS, expectStatus: 201 };
        without.push(await closedLoop({ ...options, next: plain }));
        withKey.push(await closedLoop({ ...options, next: keyed }));
      }
      const base = merge(without);
      const key = merge(withKey);
      results[`create@${connections}`] = { without: base, withKey: key };
      for (const [name, result] of [['create (baseline)', base], ['create + Idempotency-Key', key]] as const) {
        rows.push({
          case: name,
          conns: connections,
          'req/s': result.perSecond.toFixed(0),
          'p50 ms': result.p50.toFixed(2),
          'p99 ms': result.p99.toFixed(2),
          'req/s ratio': (result.perSecond / base.perSecond).toFixed(2),
          errors: result.unexpected,
        });
      }
    }
    printTable(rows);
    const ratios = CONNECTIONS.map((connections) => {
      const entry = results[`create@${connections}`] as { without: LoadResult; withKey: LoadResult };
      return entry.withKey.perSecond / entry.without.perSecond;
    });
    process.stdout.write(`\nIdempotency-Key overhead: keyed throughput is ${ratios.map((ratio) => ratio.toFixed(2)).join(' / ')} of unkeyed at ${CONNECTIONS.join(' / ')} connections (target > 0.80)\n`);
    await fs.mkdir('bench/results', { recursive: true });
    await fs.writeFile(`bench/results/bench-${Date.now()}.json`, JSON.stringify(results, null, 2));
  } finally {
    server.child.kill('SIGTERM');
    await server.exited;
    await database.close();
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`bench failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
