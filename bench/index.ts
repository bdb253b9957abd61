/**
 * npm run bench — one harness for the whole product: it starts its own PostgreSQL (or uses DATABASE_URL's
 * server) and API servers, seeds, and prints tables in which every number stands next to a baseline measured
 * in the same run (these machines are noisy: compare ratios, never absolute numbers across runs):
 *   1. the write paths at 1, 8 and 32 connections, against the database ceiling of a create (its own SQL
 *      replayed by plain pg clients) — the API's create should reach ≥ 60% of it — and keyed against unkeyed;
 *   2. search and list pages at 10k, 100k and 1M check-ins (a database and server of their own), against
 *      reading one site at the same moment: the cost should not grow with the table;
 *   3. the companions: plate search, webhook dispatch overhead, webhook fairness between tenants, kiosk drain rate;
 *   4. the write server's memory at the end against its memory after start.
 * Settings (env): BENCH_SECONDS per write case and connection count (3), BENCH_ROUNDS (3), BENCH_WARMUP_SECONDS
 * (4, unmeasured creates and ceiling replays before the first measurement), BENCH_CONNECTIONS
 * (1,8,32), BENCH_SEARCH_SIZES (10000,100000,1000000; BENCH_QUICK=1 stops at 100k), BENCH_SEARCH_SAMPLES (100), BENCH_SEARCH=0 (skips section 2),
 * BENCH_COMPANIONS (plates,webhooks,fairness,kiosk or none), BENCH_COMPANION_TIMEOUT_SECONDS (240), and those of
 * bench/companions.ts. The default run takes about 5 minutes on a 2-core machine.
 */
import { type World, buildWorld } from '../test/support/factories';
import { spawnServer } from '../test/support/serverProcess';
import { COMPANIONS, type CompanionRun, runCompanion } from './companions';
import {
  BENCH_SERVER_ENV,
  envNumber,
  memoryOf,
  openBenchDatabase,
  printTable,
  runBench,
  startBenchDatabase,
  writeResults,
} from './harness';
import { type PeerComparison, comparePeer, peerDir, startPeer } from './peer';
import { type ScalingStep, measureSearchScaling, scalingRows } from './searchScaling';
import { CASES, type WriteReport, measureWrites } from './writes';

const SECONDS = envNumber('BENCH_SECONDS', 3);
const ROUNDS = Math.max(1, Math.round(envNumber('BENCH_ROUNDS', 3)));
const WARMUP_SECONDS = envNumber('BENCH_WARMUP_SECONDS', 4);
const CONNECTIONS = (process.env.BENCH_CONNECTIONS || '1,8,32').split(',').map(Number);
const SEARCH_SAMPLES = Math.round(envNumber('BENCH_SEARCH_SAMPLES', 100));
const SIZES = (
  process.env.BENCH_SEARCH_SIZES || (process.env.BENCH_QUICK === '1' ? '10000,100000' : '10000,100000,1000000')
)
  .split(',')
  .map(Number);
const COMPANION_NAMES = (process.env.BENCH_COMPANIONS ?? 'plates,webhooks,fairness,kiosk')
  .split(',')
  .filter((name) => name && name !== 'none');
const SEARCH = process.env.BENCH_SEARCH !== '0';
const WRITES = process.env.BENCH_WRITES !== '0';
const PEER = process.env.BENCH_PEER !== '0';
const PEER_CONNECTIONS = Math.max(1, Math.round(envNumber('BENCH_PEER_CONNECTIONS', 16)));
const PEER_TARGET = 2;
const COMPANION_TIMEOUT_MS = envNumber('BENCH_COMPANION_TIMEOUT_SECONDS', 240) * 1000;
const CEILING_TARGET = 0.6;

const out = (text: string) => process.stdout.write(text);
const fixed = (value: number, digits = 2) => (Number.isFinite(value) ? value.toFixed(digits) : '-');

function printWrites(writes: WriteReport): void {
  const ceilingOf = (connections: number, name: string) =>
    writes.cases.find((entry) => entry.connections === connections && entry.name === name)?.result.perSecond ??
    Number.NaN;
  const keyedCase = (name: string) => name === CASES.createKeyed || name === CASES.ceilingKeyed;
  printTable(
    writes.cases.map((entry) => ({
      case: entry.name,
      conns: entry.connections,
      'req/s': fixed(entry.result.perSecond, 0),
      'p50 ms': fixed(entry.result.p50),
      'p99 ms': fixed(entry.result.p99),
      '÷ ceiling': fixed(
        entry.result.perSecond /
          ceilingOf(entry.connections, keyedCase(entry.name) ? CASES.ceilingKeyed : CASES.ceiling),
      ),
      requests: entry.result.requests,
      errors: entry.result.unexpected,
    })),
  );
  const plain = writes.ceilingRatios.map((entry) => entry.plain);
  const verdict = plain.every((ratio) => ratio >= CEILING_TARGET) ? 'met' : 'NOT met';
  const spread = (rounds: number[]) => `${fixed(Math.min(...rounds))}–${fixed(Math.max(...rounds))}`;
  out(
    `\nDatabase ceiling: the API's create reaches ${plain.map((ratio) => fixed(ratio)).join(' / ')} of the plain-pg replay of its own SQL at ${CONNECTIONS.join(' / ')} connections (keyed: ${writes.ceilingRatios.map((entry) => fixed(entry.keyed)).join(' / ')}); target ≥ ${CEILING_TARGET}: ${verdict}.\n`,
  );
  out(
    `Round by round (each round's creates over that round's ceiling): ${writes.ceilingRatios.map((entry) => spread(entry.plainRounds)).join(' / ')}; a spread across ${CEILING_TARGET} means this run cannot tell the two apart (BENCH_ROUNDS and BENCH_SECONDS narrow it).\n`,
  );
  out(
    `Idempotency-Key overhead: keyed create throughput is ${writes.idempotencyRatios.map((entry) => fixed(entry.ratio)).join(' / ')} of unkeyed (target > 0.80).\n`,
  );
  out(
    '(The keyed create is over the keyed ceiling, every other row over the unkeyed one: actions other than create have no ceiling of their own.)\n',
  );
}

function printPeer(comparison: PeerComparison): void {
  printTable(
    [
      ['peer (koa + pg, 7 round trips), keyed', comparison.peer],
      ['create person', comparison.create],
      ['create person + Idempotency-Key', comparison.createKeyed],
    ].map(([name, result]) => {
      const entry = result as PeerComparison['peer'];
      return {
        case: name as string,
        conns: comparison.connections,
        'req/s': fixed(entry.perSecond, 0),
        'p50 ms': fixed(entry.p50),
        'p99 ms': fixed(entry.p99),
        '÷ peer': fixed(entry.perSecond / comparison.peer.perSecond),
        requests: entry.requests,
        errors: entry.unexpected,
      };
    }),
  );
  // The goal is the keyed create's: the peer stores a key's record with every create, as a kiosk's creates do.
  const verdict = comparison.keyedRatio >= PEER_TARGET ? 'met' : 'NOT met';
  const rounds = (ratios: number[]) => ratios.map((ratio) => fixed(ratio)).join(' / ');
  out(
    `\nCreate ÷ peer at ${comparison.connections} connections: keyed ${fixed(comparison.keyedRatio)} (round by round ${rounds(comparison.keyedRounds)}), unkeyed ${fixed(comparison.ratio)} (${rounds(comparison.rounds)}); goal ≥ ${PEER_TARGET} keyed: ${verdict}. npm run bench:writes runs this alone, with the database ceiling and CPU per request.\n`,
  );
}

/** Section 1b: the API's create against the peer's, started on the same PostgreSQL and measured alongside. */
async function peerSection(input: {
  serverUrl: string;
  baseUrl: string;
  world: World;
}): Promise<PeerComparison | undefined> {
  let peer;
  try {
    peer = await startPeer(input.serverUrl);
  } catch (error) {
    out(
      `  The peer could not start (${peerDir()}; BENCH_PEER_DIR names another, BENCH_PEER=0 skips it): ${String(error)}\n`,
    );
    return undefined;
  }
  try {
    return await comparePeer({
      baseUrl: input.baseUrl,
      world: input.world,
      peer,
      connections: PEER_CONNECTIONS,
      durationMs: SECONDS * ROUNDS * 1000,
      rounds: ROUNDS,
      warmupMs: WARMUP_SECONDS * 1000,
    });
  } finally {
    await peer.stop();
  }
}

/** Section 2, on a database and API server of its own, so the table holds exactly the seeded rows; dropped after. */
async function searchSection(serverUrl: string): Promise<ScalingStep[]> {
  const database = await openBenchDatabase(serverUrl, 'gatehouse_bench_search');
  const server = await spawnServer({ ...BENCH_SERVER_ENV, DATABASE_URL: database.url });
  try {
    return await measureSearchScaling({
      database: database.database,
      baseUrl: server.baseUrl,
      sizes: SIZES,
      samples: SEARCH_SAMPLES,
      onStep: (step) => out(`  ${step.tableRows} rows: seeded in ${fixed(step.seedSeconds, 1)} s, measured\n`),
    });
  } finally {
    server.child.kill('SIGTERM');
    await server.exited;
    await database.close(true);
  }
}

async function companionSection(serverUrl: string): Promise<CompanionRun[]> {
  const runs: CompanionRun[] = [];
  for (const name of COMPANION_NAMES) {
    const companion = COMPANIONS[name];
    if (!companion)
      throw new Error(`BENCH_COMPANIONS: unknown "${name}" (known: ${Object.keys(COMPANIONS).join(', ')})`);
    const run = await runCompanion(companion, serverUrl, COMPANION_TIMEOUT_MS);
    out(`  ${companion.name}: ${fixed(run.seconds, 0)} s, exit ${run.exitCode}\n`);
    if (run.output)
      out(
        `  its output ended with:\n${run.output
          .split('\n')
          .slice(-8)
          .map((line) => `    ${line}`)
          .join('\n')}\n`,
      );
    runs.push(run);
  }
  return runs;
}

async function main(): Promise<void> {
  const startedAt = Date.now();
  const database = await startBenchDatabase('gatehouse_bench');
  const server = await spawnServer({ ...BENCH_SERVER_ENV, DATABASE_URL: database.url });
  const serverPid = server.child.pid ?? 0;
  const results: Record<string, unknown> = {
    settings: { SECONDS, ROUNDS, CONNECTIONS, SEARCH_SAMPLES, SIZES, COMPANION_NAMES },
  };
  try {
    const memoryAtStart = await memoryOf(serverPid);
    out(`Gatehouse bench: PostgreSQL and API server started; server RSS ${fixed(memoryAtStart.rssMiB, 0)} MiB.\n`);

    const world = await buildWorld({ database: database.database, baseUrl: server.baseUrl });
    if (WRITES) {
      out(
        `\n1. Writes: closed loop at ${CONNECTIONS.join(' / ')} connections, ${SECONDS} s per case (creates and ceilings in ${ROUNDS} interleaved rounds); ÷ ceiling = req/s over the DB ceiling of a create at the same connections\n\n`,
      );
      const writes = await measureWrites({
        baseUrl: server.baseUrl,
        databaseUrl: database.url,
        world,
        connectionCounts: CONNECTIONS,
        durationMs: SECONDS * 1000,
        rounds: ROUNDS,
        warmupMs: WARMUP_SECONDS * 1000,
      });
      printWrites(writes);
      results.writes = writes;
    }

    if (PEER) {
      out(
        `\n1b. Create against the peer (koa + pg, ../shared/peer) on the same PostgreSQL: closed loop at ${PEER_CONNECTIONS} connections, ${ROUNDS} interleaved rounds of ${SECONDS} s each\n\n`,
      );
      const comparison = await peerSection({ serverUrl: database.serverUrl, baseUrl: server.baseUrl, world });
      if (comparison) printPeer(comparison);
      results.peer = comparison;
    }

    if (SEARCH) {
      out(
        `\n2. List and search pages as the check-in table grows (${SEARCH_SAMPLES} round-robin samples each; ÷ baseline = over GET one site sampled alongside)\n`,
      );
      out(
        SIZES.some((size) => size >= 1_000_000)
          ? '   The 1M step is on by default: seeding it takes 30-45 s on a 2-core machine (BENCH_QUICK=1 stops at 100k).\n\n'
          : `   Sizes ${SIZES.join(', ')} (BENCH_SEARCH_SIZES); the default run goes on to 1M.\n\n`,
      );
      const steps = await searchSection(database.serverUrl);
      out('\n');
      printTable(scalingRows(steps));
      out('(growth: the ÷ baseline ratio at the largest table over the smallest; 1.00 = no growth with the table.)\n');
      results.search = steps;
    }

    if (COMPANION_NAMES.length > 0) {
      out(
        '\n3. Companions (each its own process and API server on this PostgreSQL; their own JSON is in bench/results/)\n\n',
      );
      const companions = await companionSection(database.serverUrl);
      out('\n');
      printTable(companions.flatMap((run) => run.summaries.map((summary) => ({ ...summary }))));
      results.companions = companions.map(({ output, ...run }) => ({ ...run, failedOutput: output }));
    }

    const memoryAtEnd = await memoryOf(serverPid);
    out('\n4. Write server memory (RSS of its process)\n\n');
    printTable([
      {
        when: 'after start (baseline)',
        'RSS MiB': fixed(memoryAtStart.rssMiB, 0),
        'peak MiB': fixed(memoryAtStart.peakMiB, 0),
        '÷ baseline': '1.00',
      },
      {
        when: 'end of run',
        'RSS MiB': fixed(memoryAtEnd.rssMiB, 0),
        'peak MiB': fixed(memoryAtEnd.peakMiB, 0),
        '÷ baseline': fixed(memoryAtEnd.rssMiB / memoryAtStart.rssMiB),
      },
    ]);
    results.memory = { atStart: memoryAtStart, atEnd: memoryAtEnd };

    const totalSeconds = (Date.now() - startedAt) / 1000;
    results.totalSeconds = totalSeconds;
    const file = await writeResults('bench', results);
    out(`\nWhole run: ${fixed(totalSeconds, 0)} s. Results: ${file}\n`);
  } catch (error) {
    // A benchmark that fails because the server died should say so, with what the server said last.
    if (server.child.exitCode !== null || server.child.signalCode !== null) {
      out(
        `\nThe API server exited (${server.child.exitCode ?? server.child.signalCode}); its last output:\n${server.output().slice(-3000)}\n`,
      );
    }
    throw error;
  } finally {
    server.child.kill('SIGTERM');
    await server.exited;
    await database.close();
  }
}

runBench('bench', main);
