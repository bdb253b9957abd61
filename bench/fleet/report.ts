import os from 'node:os';
import { printTable } from '../harness';
import type { UnitCost } from './clients';
import { CLIENT_KINDS, type WindowReport } from './stats';

/** One step of the ramp: what the clients saw, and what the server, PostgreSQL and the machine did meanwhile. */
export interface StepResult {
  sites: number;
  report: WindowReport & { eventsMissing: number };
  /** Cores used on average over the window. */
  serverCpu: number;
  postgresCpu: number;
  generatorCpu: number;
  load1: number;
  rssBytes: number;
  heapBytes: number;
  baseRssBytes: number;
  baseHeapBytes: number;
  passed: boolean;
}

const mib = (bytes: number) => (bytes / 2 ** 20).toFixed(0);
const ms = (value: number) => (Number.isFinite(value) ? value.toFixed(1) : '-');
const out = (text: string) => process.stdout.write(text);

/** The capacity table (docs/operations.md, Capacity) and the memory each open stream costs. */
export function printCapacity(results: StepResult[], limitMs: number): void {
  printTable(
    results.map((result) => ({
      sites: result.sites,
      streams: result.report.streamsOpen,
      'req/s': (result.report.requests / result.report.seconds).toFixed(0),
      'p50 ms': ms(result.report.p50),
      'p99 ms': ms(result.report.p99),
      'max ms': ms(result.report.max),
      errors: result.report.errors,
      '409s': result.report.conflicts,
      'event p99 ms': ms(result.report.eventLatency.p99),
      'events lost': result.report.eventsMissing,
      'server cores': result.serverCpu.toFixed(2),
      'PostgreSQL cores': result.postgresCpu.toFixed(2),
      'generator cores': result.generatorCpu.toFixed(2),
      load: result.load1.toFixed(1),
      'server MiB': mib(result.rssBytes),
      verdict: result.passed ? 'held' : 'failed',
    })),
  );
  const held = results.filter((result) => result.passed);
  const best = held.at(-1);
  out(
    best
      ? `\nMost sites held: ${best.sites} (p99 ${ms(best.report.p99)} ms < ${limitMs} ms, no errors, no event lost).\n`
      : `\nNo step held (p99 < ${limitMs} ms, no errors).\n`,
  );
  // What a site costs in CPU, whatever the machine's other load does to latency: the cores the server and
  // PostgreSQL used per site, and how many sites 70 % of this machine's cores would carry at that cost.
  const costly = results.at(-1);
  if (costly) {
    const perSite = (costly.serverCpu + costly.postgresCpu) / costly.sites;
    const cores = os.cpus().length;
    out(
      `CPU per site at ${costly.sites} sites: ${(perSite * 1000).toFixed(2)} ms a second (server and PostgreSQL); at that cost 70 % of ${cores} cores carry ${Math.floor((0.7 * cores) / perSite)} sites (a projection: CPU time measured on a busy machine is inflated, not deflated).\n`,
    );
  }
  const largest = results.at(-1);
  if (largest && largest.report.streamsOpen > 0) {
    const streams = largest.report.streamsOpen;
    out(
      `Server memory per open stream at ${streams} streams: ${((largest.rssBytes - largest.baseRssBytes) / streams / 1024).toFixed(1)} KiB resident, ${((largest.heapBytes - largest.baseHeapBytes) / streams / 1024).toFixed(1)} KiB of JS heap (above the server at rest).\n`,
    );
  }
}

/** Operations not calibrated on their own, costed as the one most like them. */
const PROXIES: Record<string, string> = {
  'visitor.digest': 'visitor.config',
  'gate.heartbeat': 'visitor.heartbeat',
  'console.list': 'gate.list',
};

/**
 * Each client kind's share of the requests and of the server's and PostgreSQL's CPU in one window: its
 * requests of each operation times that operation's calibrated cost, plus a third of what holding the
 * streams costs (each site has one stream of each kind). Also how much of the measured CPU that explains.
 */
export function printShares(
  step: StepResult,
  calibration: { idle: { serverMsPerSecond: number; postgresMsPerSecond: number }; costs: UnitCost[] },
  restMsPerSecond: number,
): void {
  const cost = new Map(calibration.costs.map((unit) => [unit.operation as string, unit.serverMs + unit.postgresMs]));
  const { report } = step;
  // The paused fleet's CPU less the server's at rest: what holding the streams costs.
  const holdingPerSecond = Math.max(
    0,
    calibration.idle.serverMsPerSecond + calibration.idle.postgresMsPerSecond - restMsPerSecond,
  );
  const holding = holdingPerSecond * report.seconds;
  const byKind = new Map(CLIENT_KINDS.map((kind) => [kind, { requests: 0, cpuMs: holding / CLIENT_KINDS.length }]));
  for (const [operation, summary] of Object.entries(report.operations)) {
    const kind = byKind.get(operation.slice(0, operation.indexOf('.')) as (typeof CLIENT_KINDS)[number]);
    if (!kind) continue;
    kind.requests += summary.count;
    kind.cpuMs += summary.count * (cost.get(operation) ?? cost.get(PROXIES[operation] ?? '') ?? 0);
  }
  const requests = [...byKind.values()].reduce((sum, kind) => sum + kind.requests, 0);
  const attributed = [...byKind.values()].reduce((sum, kind) => sum + kind.cpuMs, 0);
  const measured = (step.serverCpu + step.postgresCpu) * report.seconds * 1000 - restMsPerSecond * report.seconds;
  out(`\nAt ${step.sites} sites, over ${report.seconds.toFixed(0)} s:\n`);
  printTable(
    [...byKind].map(([kind, totals]) => ({
      client: kind,
      requests: totals.requests,
      'share of requests': `${((totals.requests / requests) * 100).toFixed(0)} %`,
      'share of server + PostgreSQL CPU': `${((totals.cpuMs / attributed) * 100).toFixed(0)} %`,
    })),
  );
  out(
    `Holding the streams (comments, access checks) costs ${holdingPerSecond.toFixed(0)} ms of CPU a second, split evenly above; the server and PostgreSQL at rest, ${restMsPerSecond.toFixed(0)} ms a second, are left out. The calibrated costs explain ${((attributed / measured) * 100).toFixed(0)} % of the CPU measured in the window (less the rest).\n\n`,
  );
  printTable(
    calibration.costs.map((unit) => ({
      operation: unit.operation,
      'server ms': unit.serverMs.toFixed(2),
      'PostgreSQL ms': unit.postgresMs.toFixed(2),
      'in the window': report.operations[unit.operation]?.count ?? 0,
      'p99 ms in the window': ms(report.operations[unit.operation]?.p99 ?? Number.NaN),
    })),
  );
}
