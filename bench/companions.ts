/**
 * The benchmarks other parts of the product own — webhook dispatch overhead (bench/webhooks.ts), webhook
 * fairness between tenants (bench/webhookFairness.ts), kiosk drain
 * rate (bench/kioskDrain.ts), plate search (bench/plateSearch.ts) — run as they are, each as its own process
 * on the harness's PostgreSQL, with shorter settings; their JSON result is read back and summarised here, so
 * no measurement is duplicated. (They export no measuring function: each runs its main() when started.)
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs/promises';
import path from 'node:path';
import { z } from 'zod';

const ROOT = path.resolve(import.meta.dirname, '..');
const RESULTS = path.join(ROOT, 'bench/results');

export interface CompanionSummary {
  measure: string;
  value: string;
  ratio: string;
  target: string;
}

export interface CompanionRun {
  name: string;
  seconds: number;
  exitCode: number | string;
  summaries: CompanionSummary[];
  /** The companion's own JSON result, as written. */
  result?: unknown;
  /** Its output, when it failed. */
  output?: string;
}

interface Companion {
  name: string;
  script: string;
  /** Its result file is the newest `bench/results/<prefix>-*.json` written during the run. */
  prefix: string;
  env: Record<string, string>;
  summarise: (result: unknown) => CompanionSummary[];
}

const LoadSide = z.object({ perSecond: z.number() }).passthrough();
const WebhookResult = z.record(
  z.string(),
  z
    .object({ none: LoadSide, threeSubscriptions: LoadSide, ratio: z.number(), medianPairRatio: z.number().optional() })
    .passthrough(),
);
const KioskResult = z
  .object({
    actions: z.number(),
    concurrency: z.number(),
    plain: z.array(z.number()),
    engine: z.array(z.number()),
    ratio: z.number(),
  })
  .passthrough();
const Latency = z.object({ p50: z.number(), p99: z.number() }).passthrough();
const FairnessResult = z
  .object({
    alone: Latency,
    neighboured: Latency,
    ratio: z.number(),
    slowMs: z.number(),
    noisySubscriptions: z.number(),
  })
  .passthrough();
const PlateResult = z
  .object({
    visits: z.number(),
    rows: z.array(z.record(z.string(), z.union([z.string(), z.number()]))),
    targetMet: z.boolean(),
    usesPlateIndex: z.boolean(),
  })
  .passthrough();

const mean = (values: number[]) => values.reduce((sum, value) => sum + value, 0) / Math.max(1, values.length);

export const COMPANIONS: Record<string, Companion> = {
  plates: {
    name: 'plate search',
    script: 'bench/plateSearch.ts',
    prefix: 'plates',
    env: {
      BENCH_VISITS: process.env.BENCH_PLATE_VISITS ?? '100000',
      BENCH_SAMPLES: process.env.BENCH_PLATE_SAMPLES ?? '150',
    },
    summarise: (raw) => {
      const result = PlateResult.parse(raw);
      return result.rows
        .filter((row) => !String(row.shape).startsWith('baseline'))
        .map((row) => ({
          measure: `plates (${result.visits / 1000}k visits): ${String(row.shape)}`,
          value: `p50 ${String(row['p50 ms'])} ms`,
          ratio: `${String(row['p50 / baseline'])} × GET site`,
          target: String(row.shape).includes('plate') && !String(row.shape).startsWith('site') ? '< 10 ms p50' : '-',
        }));
    },
  },
  webhooks: {
    name: 'webhook dispatch',
    script: 'bench/webhooks.ts',
    prefix: 'webhooks',
    env: {
      BENCH_SECONDS: process.env.BENCH_WEBHOOK_SECONDS ?? '6',
      BENCH_ROUNDS: process.env.BENCH_WEBHOOK_ROUNDS ?? '4',
    },
    summarise: (raw) =>
      Object.entries(WebhookResult.parse(raw)).map(([name, entry]) => ({
        measure: `webhooks: ${name.replace('@', ' @ ')} conns, 3 subscriptions vs none`,
        value: `${entry.threeSubscriptions.perSecond.toFixed(0)} vs ${entry.none.perSecond.toFixed(0)} req/s`,
        ratio: `${entry.ratio.toFixed(2)}${entry.medianPairRatio === undefined ? '' : ` (pairs ${entry.medianPairRatio.toFixed(2)})`}`,
        target: '≥ 0.90',
      })),
  },
  fairness: {
    name: 'webhook fairness',
    script: 'bench/webhookFairness.ts',
    prefix: 'fairness',
    env: { BENCH_SECONDS: process.env.BENCH_FAIRNESS_SECONDS ?? '15' },
    summarise: (raw) => {
      const result = FairnessResult.parse(raw);
      return [
        {
          measure: `webhooks: a quiet account's delivery latency, with a noisy neighbour (${result.noisySubscriptions} receivers × ${result.slowMs} ms) vs alone`,
          value: `p50 ${result.neighboured.p50.toFixed(0)} vs ${result.alone.p50.toFixed(0)} ms`,
          ratio: result.ratio.toFixed(2),
          target: '< 2',
        },
      ];
    },
  },
  kiosk: {
    name: 'kiosk drain',
    script: 'bench/kioskDrain.ts',
    prefix: 'kioskDrain',
    env: { BENCH_VISITS: process.env.BENCH_KIOSK_VISITS ?? '100', BENCH_ROUNDS: process.env.BENCH_KIOSK_ROUNDS ?? '2' },
    summarise: (raw) => {
      const result = KioskResult.parse(raw);
      return [
        {
          measure: `kiosk drain: ${result.actions} actions at concurrency ${result.concurrency}, engine vs plain fetch`,
          value: `${mean(result.engine).toFixed(0)} vs ${mean(result.plain).toFixed(0)} actions/s`,
          ratio: result.ratio.toFixed(2),
          target: '> 0.70',
        },
      ];
    },
  },
};

async function newestResult(prefix: string, since: number): Promise<string | undefined> {
  const names = await fs.readdir(RESULTS).catch(() => [] as string[]);
  const stamped = names
    .map((name) => ({ name, stamp: Number(new RegExp(`^${prefix}-(\\d+)\\.json$`).exec(name)?.[1]) }))
    .filter((entry) => Number.isFinite(entry.stamp) && entry.stamp >= since)
    .sort((a, b) => b.stamp - a.stamp);
  return stamped[0] ? path.join(RESULTS, stamped[0].name) : undefined;
}

/** Runs one companion to its end (or kills its process group at `timeoutMs`) and reads its result. */
export async function runCompanion(companion: Companion, serverUrl: string, timeoutMs: number): Promise<CompanionRun> {
  const started = Date.now();
  // Its own process group, so a time-out ends the servers it started too.
  const child = spawn(process.execPath, ['--import', 'tsx', companion.script], {
    cwd: ROOT,
    env: { ...process.env, ...companion.env, DATABASE_URL: serverUrl },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const timer = setTimeout(() => {
    if (child.pid !== undefined) process.kill(-child.pid, 'SIGKILL');
  }, timeoutMs);
  const exitCode = await new Promise<number | string>((resolve) =>
    child.once('exit', (code, signal) => resolve(code ?? signal ?? 'unknown')),
  );
  clearTimeout(timer);
  const seconds = (Date.now() - started) / 1000;
  const file = await newestResult(companion.prefix, started);
  const failed = (why: string): CompanionRun => ({
    name: companion.name,
    seconds,
    exitCode,
    output: output.slice(-4000),
    summaries: [{ measure: companion.name, value: why, ratio: '-', target: '-' }],
  });
  if (!file) return failed(`no result (exit ${exitCode})`);
  const result = JSON.parse(await fs.readFile(file, 'utf8')) as unknown;
  try {
    return { name: companion.name, seconds, exitCode, result, summaries: companion.summarise(result) };
  } catch (error) {
    return {
      ...failed(`result not understood: ${error instanceof Error ? error.message.slice(0, 80) : String(error)}`),
      result,
    };
  }
}
