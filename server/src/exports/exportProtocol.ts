import type { ExportFilter } from '../queries/checkinExport';
import type { CustomColumn } from '../queries/customColumns';

/** Which export, and what it needs to know: people's custom-field columns are read by the main thread. */
export type ExportJob =
  { kind: 'people'; filter: ExportFilter; custom: CustomColumn[] } | { kind: 'vehicles'; filter: ExportFilter };

/** What an export thread is started with (structured-cloned into it). */
export interface ExportThreadData {
  job: ExportJob;
  databaseUrl: string;
  /** Chunks it may post before the main thread hands one on and grants one more. */
  window: number;
}

/** From the thread: a chunk of the CSV (the first `length` bytes of `bytes`, transferred), the end, or why it stopped. */
export type FromExportThread =
  { type: 'chunk'; bytes: ArrayBuffer; length: number } | { type: 'end' } | { type: 'failed'; message: string };

/** To the thread: one more chunk may be posted, and (once written out) the memory of one it posted, to reuse. */
export type ToExportThread = { type: 'credit'; bytes?: ArrayBuffer };
