/**
 * One CSV export in a worker thread of its own (started by exportThreads.ts): reads the rows over a
 * connection of its own, formats them and posts the bytes in chunks, never more than its credit ahead.
 */
import { parentPort, workerData } from 'node:worker_threads';
import pg from 'pg';
import { personCheckinsCsv, vehicleCheckinsCsv } from './checkinCsv';
import type { ExportThreadData, FromExportThread, ToExportThread } from './exportProtocol';

/** Bytes per chunk posted: large enough that messages cost little, small enough that a few stay cheap. */
const CHUNK_CHARS = 64 * 1024;

const port = parentPort;
if (!port) throw new Error('exportThreadEntry runs in a worker thread');
const data = workerData as ExportThreadData;

// As the server reads them (db/database.ts): int8 ids and counts as numbers.
pg.types.setTypeParser(pg.types.builtins.INT8, (value: string) => Number(value));
const pool = new pg.Pool({
  connectionString: data.databaseUrl, max: 1, application_name: 'gatehouse-export', keepAlive: true,
  connectionTimeoutMillis: 5_000, statement_timeout: 30_000, query_timeout: 40_000,
});
pool.on('error', () => undefined);

let credit = data.window;
let granted: (() => void) | undefined;
port.on('message', (message: ToExportThread) => {
  if (message.type !== 'credit') return;
  credit += 1;
  granted?.();
  granted = undefined;
});

/** Posts `text` as bytes the main thread takes over (transferred, not copied), once it has credit for them. */
async function post(text: string): Promise<void> {
  while (credit === 0) await new Promise<void>((resolve) => (granted = resolve));
  credit -= 1;
  const bytes = new ArrayBuffer(Buffer.byteLength(text));
  Buffer.from(bytes).write(text);
  port?.postMessage({ type: 'chunk', bytes } satisfies FromExportThread, [bytes]);
}

async function run(): Promise<void> {
  const db = { pool };
  const lines = data.kind === 'people' ? personCheckinsCsv(db, data.filter) : vehicleCheckinsCsv(db, data.filter);
  let pending = '';
  for await (const text of lines) {
    pending += text;
    if (pending.length >= CHUNK_CHARS) {
      await post(pending);
      pending = '';
    }
  }
  if (pending.length > 0) await post(pending);
}

try {
  await run();
  port.postMessage({ type: 'end' } satisfies FromExportThread);
} catch (error) {
  port.postMessage({ type: 'failed', message: error instanceof Error ? error.message : String(error) } satisfies FromExportThread);
} finally {
  await pool.end();
  port.close();
}
