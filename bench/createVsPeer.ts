/**
 * npm run bench:writes — the person create alone against the peer (bench/peer.ts) and against its database
 * ceiling (bench/dbCeiling.ts), in about a minute: section 1b of `npm run bench` with the ceiling beside it
 * and what each side spends per request. One PostgreSQL (real durability), one API server, one peer; then
 * rounds of (peer, keyed create, unkeyed create, keyed ceiling) at the same connection count, interleaved
 * so the machine's drift falls on all alike. For each case: req/s, latency, and the CPU per request of the
 * API server, the peer, PostgreSQL (postmaster and backends) and this load generator, from /proc, and the
 * WAL PostgreSQL wrote per request.
 * Settings (env): BENCH_PEER_CONNECTIONS (16), BENCH_SECONDS (3, per case and round), BENCH_ROUNDS (3),
 * BENCH_WARMUP_SECONDS (4), BENCH_WAITS=1 (sample pg_stat_activity's wait events during each case),
 * BENCH_PROFILE=1 (a V8 CPU profile of the API server in bench/results/).
 */
import { randomUUID } from 'node:crypto';
import path from 'node:path';
import pg from 'pg';
import { buildWorld } from '../test/support/factories';
import { spawnServer } from '../test/support/serverProcess';
import { type RecordedCreate, recordCreate, replayCreates } from './dbCeiling';
import { BENCH_SERVER_ENV, envNumber, printTable, runBench, startBenchDatabase, writeResults } from './harness';
import { type LoadResult, mergeResults } from './load';
import { type RunningPeer, createBody, loopCreates, startPeer } from './peer';
import { cpuSecondsOf, cpuSnapshot, postmasterOf, treeCpuSecondsOf } from './processCpu';
import { sampleWaits } from './waitSampler';

const CONNECTIONS = Math.max(1, Math.round(envNumber('BENCH_PEER_CONNECTIONS', 16)));
const SECONDS = envNumber('BENCH_SECONDS', 3);
const ROUNDS = Math.max(1, Math.round(envNumber('BENCH_ROUNDS', 3)));
const WARMUP_SECONDS = envNumber('BENCH_WARMUP_SECONDS', 4);
const WAITS = process.env.BENCH_WAITS === '1';
const PROFILE = process.env.BENCH_PROFILE === '1';
const PEER_TARGET = 2;

const out = (text: string) => process.stdout.write(text);
const fixed = (value: number, digits = 2) => (Number.isFinite(value) ? value.toFixed(digits) : '-');

const CASE_NAMES = ['peer (koa + pg), keyed', 'create + Idempotency-Key', 'create, no key', 'DB ceiling, keyed'];

/**
 * PostgreSQL's WAL position in bytes, read on a connection of its own: the WAL a case wrote (the whole
 * cluster's, so the peer's and ours are counted alike) is what its commits had to flush.
 */
async function walPosition(url: string): Promise<{ bytes: () => Promise<number>; close: () => Promise<void> }> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  return {
    bytes: async () =>
      Number(
        (await client.query<{ at: string }>("SELECT pg_wal_lsn_diff(pg_current_wal_lsn(), '0/0')::text AS at")).rows[0]
          ?.at,
      ),
    close: () => client.end(),
  };
}

/** The bench PostgreSQL's postmaster: the parent of a backend, read while that backend lives. */
async function postmasterPid(url: string): Promise<number> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await postmasterOf(
      (await client.query<{ pid: number }>('SELECT pg_backend_pid() AS pid')).rows[0]?.pid ?? 0,
    );
  } finally {
    await client.end();
  }
}

interface CaseRun {
  result: LoadResult;
  /** CPU seconds each part spent during the case. */
  cpu: Record<string, number>;
  waits?: Record<string, number>;
}

async function main(): Promise<void> {
  const startedAt = Date.now();
  const database = await startBenchDatabase('gatehouse_bench_writes');
  const profileDir = path.resolve('bench/results', `profile-${Date.now()}`);
  const server = await spawnServer(
    { ...BENCH_SERVER_ENV, DATABASE_URL: database.url },
    60_000,
    PROFILE ? ['--cpu-prof', `--cpu-prof-dir=${profileDir}`] : [],
  );
  let peer: RunningPeer | undefined;
  const sampler = WAITS ? await sampleWaits(database.serverUrl) : undefined;
  const wal = await walPosition(database.url);
  try {
    const world = await buildWorld({ database: database.database, baseUrl: server.baseUrl });
    peer = await startPeer(database.serverUrl);
    const postmaster = await postmasterPid(database.url);
    const serverPid = server.child.pid ?? 0;
    const peerPid = peer.pid;
    const cpuParts = {
      server: () => cpuSecondsOf(serverPid),
      peer: () => cpuSecondsOf(peerPid),
      postgres: () => treeCpuSecondsOf(postmaster),
      generator: () => Promise.resolve((process.cpuUsage().user + process.cpuUsage().system) / 1e6),
      // Not CPU: bytes of WAL, counted by the same snapshots (shown per request in bytes, not µs).
      wal: wal.bytes,
    };

    const people = `/v1/sites/${world.siteId}/checkins/people`;
    const recorded: RecordedCreate = await recordCreate({
      databaseUrl: database.url,
      path: people,
      token: world.token,
      body: createBody(0),
      key: `record-${randomUUID()}`,
    });
    const running = peer;
    const post = (baseUrl: string, siteId: number, token: string, keyed: boolean, durationMs: number) =>
      loopCreates({ baseUrl, siteId, token }, { connections: CONNECTIONS, durationMs, keyed });
    const cases: Array<(durationMs: number) => Promise<LoadResult>> = [
      (ms) => post(running.baseUrl, running.siteId, running.token, true, ms),
      (ms) => post(server.baseUrl, world.siteId, world.token, true, ms),
      (ms) => post(server.baseUrl, world.siteId, world.token, false, ms),
      (ms) => replayCreates({ databaseUrl: database.url, recorded, connections: CONNECTIONS, durationMs: ms }),
    ];
    out(
      `Create against the peer (${CONNECTIONS} connections, ${ROUNDS} interleaved rounds of ${SECONDS} s per case, after ${WARMUP_SECONDS} s of warm-up)\n\n`,
    );
    if (WARMUP_SECONDS > 0) for (const run of cases) await run((WARMUP_SECONDS * 1000) / cases.length);

    const runs: CaseRun[][] = cases.map(() => []);
    for (let round = 0; round < ROUNDS; round += 1) {
      for (const [index, run] of cases.entries()) {
        const before = await cpuSnapshot(cpuParts);
        sampler?.start();
        const result = await run(SECONDS * 1000);
        const waits = sampler?.stop();
        const after = await cpuSnapshot(cpuParts);
        const cpu = Object.fromEntries(
          Object.keys(before).map((name) => [name, (after[name] ?? 0) - (before[name] ?? 0)]),
        );
        runs[index]?.push({ result, cpu, waits });
      }
    }

    const merged = runs.map((caseRuns) => ({
      result: { ...mergeResults(caseRuns.map((run) => run.result)), latencies: undefined },
      cpu: caseRuns.reduce<Record<string, number>>((sum, run) => {
        for (const [name, seconds] of Object.entries(run.cpu)) sum[name] = (sum[name] ?? 0) + seconds;
        return sum;
      }, {}),
      waits: caseRuns.reduce<Record<string, number>>((sum, run) => {
        for (const [name, count] of Object.entries(run.waits ?? {})) sum[name] = (sum[name] ?? 0) + count;
        return sum;
      }, {}),
    }));
    const peerRate = merged[0]?.result.perSecond ?? Number.NaN;
    const ceilingRate = merged[3]?.result.perSecond ?? Number.NaN;
    const perRequest = (entry: (typeof merged)[number], part: string) =>
      fixed(((entry.cpu[part] ?? Number.NaN) / entry.result.requests) * 1e6, 0);
    printTable(
      merged.map((entry, index) => ({
        case: CASE_NAMES[index] ?? '',
        'req/s': fixed(entry.result.perSecond, 0),
        'p50 ms': fixed(entry.result.p50),
        'p99 ms': fixed(entry.result.p99),
        '÷ peer': fixed(entry.result.perSecond / peerRate),
        '÷ ceiling': fixed(entry.result.perSecond / ceilingRate),
        'server µs': index === 1 || index === 2 ? perRequest(entry, 'server') : '-',
        'peer µs': index === 0 ? perRequest(entry, 'peer') : '-',
        'postgres µs': perRequest(entry, 'postgres'),
        'generator µs': perRequest(entry, 'generator'),
        'WAL bytes': fixed((entry.cpu.wal ?? Number.NaN) / entry.result.requests, 0),
        errors: entry.result.unexpected,
      })),
    );
    const keyedRounds = (runs[1] ?? []).map(
      (run, round) => run.result.perSecond / (runs[0]?.[round]?.result.perSecond ?? Number.NaN),
    );
    const keyed = (merged[1]?.result.perSecond ?? Number.NaN) / peerRate;
    const plain = (merged[2]?.result.perSecond ?? Number.NaN) / peerRate;
    out(
      `\nCreate ÷ peer at ${CONNECTIONS} connections: keyed ${fixed(keyed)} (round by round ${keyedRounds.map((ratio) => fixed(ratio)).join(' / ')}), unkeyed ${fixed(plain)}; goal ≥ ${PEER_TARGET}: ${keyed >= PEER_TARGET ? 'met' : 'NOT met'}.\n`,
    );
    out(
      `Keyed create ÷ its database ceiling: ${fixed((merged[1]?.result.perSecond ?? Number.NaN) / ceilingRate)}; the ceiling ÷ peer: ${fixed(ceilingRate / peerRate)}.\n`,
    );
    out(
      '(µs: CPU per request of each process during the case; the machine has 2 cores. WAL bytes: what PostgreSQL wrote per request.)\n',
    );
    if (WAITS) {
      out('\nPostgreSQL client backends by state (samples every 5 ms, all rounds):\n');
      for (const [index, entry] of merged.entries()) {
        const total = Object.values(entry.waits).reduce((sum, count) => sum + count, 0);
        const top = Object.entries(entry.waits)
          .sort((a, b) => b[1] - a[1])
          .slice(0, 6)
          .map(([name, count]) => `${name} ${fixed((count / total) * 100, 0)}%`);
        out(`  ${CASE_NAMES[index]}: ${top.join(', ')}\n`);
      }
    }
    const file = await writeResults('writes', {
      settings: { CONNECTIONS, SECONDS, ROUNDS, WARMUP_SECONDS },
      cases: merged.map((entry, index) => ({ name: CASE_NAMES[index], ...entry })),
      keyedRatio: keyed,
      plainRatio: plain,
      keyedRounds,
    });
    out(`\nWhole run: ${fixed((Date.now() - startedAt) / 1000, 0)} s. Results: ${file}\n`);
    if (PROFILE) out(`The server's profile is written to ${profileDir} when it stops.\n`);
  } finally {
    await wal.close();
    await sampler?.close();
    await peer?.stop();
    server.child.kill('SIGTERM');
    await server.exited;
    await database.close();
  }
}

runBench('bench:writes', main);
