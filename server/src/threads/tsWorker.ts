import { fileURLToPath } from 'node:url';
import { Worker, type WorkerOptions } from 'node:worker_threads';

/**
 * A worker thread running the TypeScript module `entry` (a file URL): the thread loads TypeScript the way the
 * process does (tsx), registered inside it before the entry is imported.
 */
export function tsWorker(entry: URL, options: Omit<WorkerOptions, 'eval'>): Worker {
  const source = `import(${JSON.stringify(import.meta.resolve('tsx/esm/api'))}).then(({ register }) => { register(); return import(${JSON.stringify(entry.href)}); })`;
  return new Worker(source, { ...options, eval: true });
}

/**
 * The same through tsx's require hook, which runs in the thread itself: no module-loader thread beside it
 * (about 10 MB less per thread). For entries without top-level await or `import.meta`.
 */
export function tsRequireWorker(entry: URL, options: Omit<WorkerOptions, 'eval'>): Worker {
  const tsx = fileURLToPath(import.meta.resolve('tsx/cjs/api'));
  const source = `require(${JSON.stringify(tsx)}).register(); require(${JSON.stringify(fileURLToPath(entry))});`;
  return new Worker(source, { ...options, eval: true });
}
