import type { ExportFilter } from '../queries/checkinExport';

/** What an export thread is started with (structured-cloned into it). */
export interface ExportThreadData {
  kind: 'people' | 'vehicles';
  filter: ExportFilter;
  databaseUrl: string;
  /** Chunks it may post before the main thread hands one on and grants one more. */
  window: number;
}

/** From the thread: a chunk of the CSV (its bytes transferred), the end, or why it stopped. */
export type FromExportThread = { type: 'chunk'; bytes: ArrayBuffer } | { type: 'end' } | { type: 'failed'; message: string };

/** To the thread: one more chunk may be posted. */
export type ToExportThread = { type: 'credit' };
