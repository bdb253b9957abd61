/**
 * What PostgreSQL's client backends are doing, sampled from `pg_stat_activity` every few milliseconds
 * (bench:writes with BENCH_WAITS=1): each active backend counted under its wait event (`Lock:advisory`,
 * `IO:WalSync`, `LWLock:WALWrite`, …) or `running` when it waits on nothing; idle ones under `idle`
 * (waiting for their client). It shows whether backends queue on a lock, on the WAL, or on the client.
 */
import pg from 'pg';

const INTERVAL_MS = 5;

export interface WaitSampler {
  start: () => void;
  /** Stops sampling; answers the counts since `start`. */
  stop: () => Record<string, number>;
  close: () => Promise<void>;
}

const STATES = `SELECT CASE WHEN state = 'active' THEN COALESCE(wait_event_type || ':' || wait_event, 'running')
    ELSE COALESCE(state, 'unknown') END AS what, count(*)::int AS n
  FROM pg_stat_activity WHERE backend_type = 'client backend' AND pid <> pg_backend_pid() GROUP BY 1`;

export async function sampleWaits(serverUrl: string): Promise<WaitSampler> {
  const client = new pg.Client({ connectionString: serverUrl, application_name: 'gatehouse-bench-waits' });
  await client.connect();
  let counts: Record<string, number> = {};
  let running = false;
  let loop: Promise<void> = Promise.resolve();
  const sample = async () => {
    while (running) {
      const rows = await client.query<{ what: string; n: number }>(STATES);
      for (const row of rows.rows) counts[row.what] = (counts[row.what] ?? 0) + row.n;
      await new Promise((resolve) => setTimeout(resolve, INTERVAL_MS));
    }
  };
  return {
    start() {
      counts = {};
      running = true;
      loop = sample();
    },
    stop() {
      running = false;
      return counts;
    },
    async close() {
      running = false;
      await loop;
      await client.end();
    },
  };
}
