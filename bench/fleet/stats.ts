import { percentile } from './measure';

export type ClientKind = 'visitor' | 'gate' | 'console';
export const CLIENT_KINDS: readonly ClientKind[] = ['visitor', 'gate', 'console'];

/** One kind of request a client makes (`visitor.create`, `console.read`, …). */
export type Operation = `${ClientKind}.${string}`;

export interface OperationReport {
  count: number;
  p50: number;
  p99: number;
  max: number;
}

/** What the load generator saw over one window. */
export interface WindowReport {
  seconds: number;
  requests: number;
  p50: number;
  p99: number;
  max: number;
  errors: number;
  /** A few of the errors, as `operation status detail`. */
  errorSamples: string[];
  /** 409s: a visit already changed by someone else (a race between two clients), not a server failure. */
  conflicts: number;
  operations: Record<string, OperationReport>;
  /** From a kiosk's write to the event reaching its site's console. */
  eventLatency: { count: number; p50: number; p99: number; max: number };
  streamsOpen: number;
  streamReconnects: number;
  /** The generator's own CPU, in milliseconds, and the longest a request waited for a free socket. */
  generatorCpuMs: number;
  maxQueuedMs: number;
}

const summary = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return {
    count: sorted.length,
    p50: percentile(sorted, 0.5),
    p99: percentile(sorted, 0.99),
    max: sorted.at(-1) ?? Number.NaN,
  };
};

/** Latencies and failures by operation, from one `reset` to the next `report`. */
export class FleetStats {
  private latencies = new Map<string, number[]>();
  private events: number[] = [];
  private errors = 0;
  private errorSamples: string[] = [];
  private conflicts = 0;
  private reconnects = 0;
  private startedAt = performance.now();
  private cpuAtStart = process.cpuUsage();

  reset(): void {
    this.latencies = new Map();
    this.events = [];
    this.errors = 0;
    this.errorSamples = [];
    this.conflicts = 0;
    this.reconnects = 0;
    this.startedAt = performance.now();
    this.cpuAtStart = process.cpuUsage();
  }

  request(operation: Operation, ms: number, status: number, detail = ''): void {
    let list = this.latencies.get(operation);
    if (!list) {
      list = [];
      this.latencies.set(operation, list);
    }
    list.push(ms);
    if (status === 409) this.conflicts += 1;
    else if (status >= 400 || status === 0) this.failed(`${operation} ${status} ${detail.slice(0, 160)}`);
  }

  failed(sample: string): void {
    this.errors += 1;
    if (this.errorSamples.length < 8) this.errorSamples.push(sample);
  }

  eventArrived(ms: number): void {
    this.events.push(ms);
  }

  reconnected(): void {
    this.reconnects += 1;
  }

  report(streamsOpen: number, maxQueuedMs: number): WindowReport {
    const all = [...this.latencies.values()].flat();
    const overall = summary(all);
    const cpu = process.cpuUsage(this.cpuAtStart);
    return {
      seconds: (performance.now() - this.startedAt) / 1000,
      requests: overall.count,
      p50: overall.p50,
      p99: overall.p99,
      max: overall.max,
      errors: this.errors,
      errorSamples: this.errorSamples,
      conflicts: this.conflicts,
      operations: Object.fromEntries([...this.latencies].map(([name, values]) => [name, summary(values)])),
      eventLatency: summary(this.events),
      streamsOpen,
      streamReconnects: this.reconnects,
      generatorCpuMs: (cpu.user + cpu.system) / 1000,
      maxQueuedMs,
    };
  }
}

/**
 * From a kiosk's write to its event at the site's console: the write's send time against the event's
 * arrival, whichever of the response and the event comes first. A write whose event never comes is missing.
 */
export class EventClock {
  private readonly sent = new Map<string, number>();
  private readonly seenEarly = new Map<string, number>();

  constructor(private readonly stats: FleetStats) {}

  wrote(key: string, sentAt: number): void {
    const seen = this.seenEarly.get(key);
    if (seen === undefined) {
      this.sent.set(key, sentAt);
      return;
    }
    this.seenEarly.delete(key);
    this.stats.eventArrived(seen - sentAt);
  }

  seen(key: string): void {
    const sentAt = this.sent.get(key);
    if (sentAt === undefined) {
      this.seenEarly.set(key, performance.now());
      if (this.seenEarly.size > 100_000) this.seenEarly.clear();
      return;
    }
    this.sent.delete(key);
    this.stats.eventArrived(performance.now() - sentAt);
  }

  /** Writes older than `ms` whose event has not come; forgets them. */
  missing(ms: number): number {
    const before = performance.now() - ms;
    let count = 0;
    for (const [key, at] of this.sent) {
      if (at >= before) continue;
      this.sent.delete(key);
      count += 1;
    }
    return count;
  }

  clear(): void {
    this.sent.clear();
    this.seenEarly.clear();
  }
}
