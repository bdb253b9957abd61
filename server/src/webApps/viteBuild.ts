import { execFile } from 'node:child_process';
import fs from 'node:fs/promises';
import { promisify } from 'node:util';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** The repository's root: web apps are built from its sources with its own Vite. */
export const repo = fileURLToPath(new URL('../../../', import.meta.url));
const viteBin = path.join(repo, 'node_modules/vite/bin/vite.js');
const STAMP = '.built-from';
const LOCK_STALE_MS = 180_000;

/** One web app the server builds with Vite and serves: its config and what it is made from. */
export interface ViteApp {
  /** The app's vite.config.ts. */
  configFile: string;
  /** The folders and files it is built from: one newer than the build's stamp makes the build stale. */
  sources: string[];
}

async function newestMtime(entry: string): Promise<number> {
  const stat = await fs.stat(entry).catch(() => undefined);
  if (!stat) return 0;
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = 0;
  for (const child of await fs.readdir(entry, { withFileTypes: true })) {
    if (child.name === 'node_modules' || child.name.startsWith('.')) continue;
    newest = Math.max(newest, await newestMtime(path.join(entry, child.name)));
  }
  return newest;
}

/** The newest source's mtime, and whether the build in `outDir` was made from sources at least that new. */
async function freshness(app: ViteApp, outDir: string): Promise<{ fresh: boolean; newest: number }> {
  const newest = Math.max(...(await Promise.all(app.sources.map(newestMtime))));
  const stamp = Number(await fs.readFile(path.join(outDir, STAMP), 'utf8').catch(() => 'NaN'));
  const index = await fs.stat(path.join(outDir, 'index.html')).catch(() => undefined);
  return { fresh: index !== undefined && Number.isFinite(stamp) && stamp >= newest, newest };
}

/** Holds `${outDir}.lock` (a directory: made atomically) while `work` runs, so parallel builders take turns. */
async function withLock<T>(outDir: string, work: () => Promise<T>): Promise<T> {
  const lock = `${outDir}.lock`;
  await fs.mkdir(path.dirname(lock), { recursive: true });
  for (;;) {
    try {
      await fs.mkdir(lock);
      break;
    } catch {
      const held = await fs.stat(lock).catch(() => undefined);
      // A builder that died keeps its lock: taken over after a build's worst time.
      if (held && Date.now() - held.mtimeMs > LOCK_STALE_MS) await fs.rm(lock, { recursive: true, force: true });
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }
  try {
    return await work();
  } finally {
    await fs.rm(lock, { recursive: true, force: true });
  }
}

export type BuildResult = { built: false } | { built: true; ms: number };

/**
 * Builds `app` into `outDir` when the build is missing or older than its sources, and stamps it; another
 * process building the same folder meanwhile is waited for, not raced.
 */
export async function ensureViteBuild(app: ViteApp, outDir: string): Promise<BuildResult> {
  if ((await freshness(app, outDir)).fresh) return { built: false };
  return withLock(outDir, async () => {
    const { fresh, newest } = await freshness(app, outDir);
    if (fresh) return { built: false };
    const started = Date.now();
    // A process of its own with NODE_ENV=production: React's production build and JSX, whatever this
    // process runs as (the tests run as NODE_ENV=test).
    await promisify(execFile)(
      process.execPath,
      [viteBin, 'build', '--config', app.configFile, '--outDir', outDir, '--emptyOutDir', '--logLevel', 'warn'],
      { cwd: repo, env: { ...process.env, NODE_ENV: 'production' } },
    );
    await fs.writeFile(path.join(outDir, STAMP), String(newest));
    return { built: true, ms: Date.now() - started };
  });
}
