import { Worker, type WorkerOptions } from 'node:worker_threads';

/**
 * A worker thread running the TypeScript module `entry` (a file URL): the thread loads TypeScript the way the
 * process does (tsx), registered inside it before the entry is imported.
 */
export function tsWorker(entry: URL, options: Omit<WorkerOptions, 'eval'>): Worker {
  const source = `import(${JSON.stringify(import.meta.resolve('tsx/esm/api'))}).then(({ register }) => { register(); return import(${JSON.stringify(entry.href)}); })`;
  return new Worker(source, { ...options, eval: true });
}
