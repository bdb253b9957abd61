/**
 * One CSV export in a worker thread of its own (started by exportThreads.ts): reads the rows over a
 * connection of its own, formats them and posts the bytes in chunks, never more than its credit ahead.
 */
import { parentPort, workerData } from 'node:worker_threads';
import pg from 'pg';
import type { Sql } from '../db/sql';
import type { ReadRows } from '../queries/checkinExport';
import { personCheckinsCsv, vehicleCheckinsCsv } from './checkinCsv';
import type { ExportThreadData, FromExportThread, ToExportThread } from './exportProtocol';

/** Characters per chunk posted: large enough that messages cost little, small enough that a few stay cheap. */
const CHUNK_CHARS = 64 * 1024;
/** The memory of a chunk: room for most chunks' UTF-8; a larger one gets a buffer of its size. */
const CHUNK_BYTES = 128 * 1024;

const port = parentPort;
if (!port) throw new Error('exportThreadEntry runs in a worker thread');
const data = workerData as ExportThreadData;

// As the server reads them (db/database.ts): int8 ids and counts as numbers.
pg.types.setTypeParser(pg.types.builtins.INT8, (value: string) => Number(value));
// One connection, the export's own: should it break, the export fails (the client gets a cut download).
const client = new pg.Client({
  connectionString: data.databaseUrl,
  application_name: 'gatehouse-export',
  keepAlive: true,
  connectionTimeoutMillis: 5_000,
  statement_timeout: 30_000,
  query_timeout: 40_000,
});
let broken: Error | undefined;
client.on('error', (error) => (broken = error));

let credit = data.window;
let granted: (() => void) | undefined;
/**
 * Chunks' memory the main thread gave back once written out: reused, so the export's bytes go through a few
 * buffers instead of a new one per chunk that the main thread's collector would free late.
 */
const spare: ArrayBuffer[] = [];
port.on('message', (message: ToExportThread) => {
  if (message.type !== 'credit') return;
  credit += 1;
  if (message.bytes && spare.length < data.window) spare.push(message.bytes);
  granted?.();
  granted = undefined;
});

/** Posts `text` as bytes the main thread takes over (transferred, not copied), once it has credit for them. */
async function post(text: string): Promise<void> {
  while (credit === 0) await new Promise<void>((resolve) => (granted = resolve));
  credit -= 1;
  const length = Buffer.byteLength(text);
  let bytes = spare.pop();
  if (!bytes || bytes.byteLength < length) bytes = new ArrayBuffer(Math.max(CHUNK_BYTES, length));
  Buffer.from(bytes).write(text);
  port?.postMessage({ type: 'chunk', bytes, length } satisfies FromExportThread, [bytes]);
}

async function run(): Promise<void> {
  await client.connect();
  const read: ReadRows = async <T extends object>(statement: Sql) => {
    if (broken) throw broken;
    return (await client.query<T>({ text: statement.text, values: statement.values })).rows;
  };
  const { job } = data;
  const lines =
    job.kind === 'people' ? personCheckinsCsv(read, job.filter, job.custom) : vehicleCheckinsCsv(read, job.filter);
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

// Not top-level await: the thread loads this module through a require hook (tsRequireWorker).
void run()
  .then(
    () => port.postMessage({ type: 'end' } satisfies FromExportThread),
    (error: unknown) =>
      port.postMessage({
        type: 'failed',
        message: error instanceof Error ? error.message : String(error),
      } satisfies FromExportThread),
  )
  .finally(async () => {
    await client.end().catch(() => undefined);
    port.close();
  });
