import { execFile } from 'node:child_process';
import fs from 'node:fs/promises';
import { promisify } from 'node:util';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const repo = fileURLToPath(new URL('../../../', import.meta.url));
const configFile = path.join(repo, 'console/vite.config.ts');
const viteBin = path.join(repo, 'node_modules/vite/bin/vite.js');
/** Where the server serves the console from unless told otherwise (console/vite.config.ts builds there). */
export const defaultConsoleDir = path.join(repo, 'dist/console');
/** The folders a console build is made from: a file newer than the build's stamp makes it stale. */
const SOURCES = ['console', 'shared'].map((folder) => path.join(repo, folder));
const STAMP = '.built-from';
const LOCK_STALE_MS = 180_000;

async function newestMtime(dir: string): Promise<number> {
  let newest = 0;
  const entries = await fs.readdir(dir, { withFileTypes: true }).catch(() => []);
  for (const entry of entries) {
    if (entry.name === 'node_modules' || entry.name.startsWith('.')) continue;
    const full = path.join(dir, entry.name);
    const mtime = entry.isDirectory() ? await newestMtime(full) : (await fs.stat(full)).mtimeMs;
    newest = Math.max(newest, mtime);
  }
  return newest;
}

/** The newest source's mtime, and whether the build in `outDir` was made from sources at least that new. */
async function freshness(outDir: string): Promise<{ fresh: boolean; newest: number }> {
  const newest = Math.max(...(await Promise.all(SOURCES.map(newestMtime))));
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
 * Builds the console into `outDir` when it is missing or older than its sources (console/ and shared/), and
 * stamps it; another process building the same folder meanwhile is waited for, not raced.
 */
export async function ensureConsoleBuild(outDir = defaultConsoleDir): Promise<BuildResult> {
  if ((await freshness(outDir)).fresh) return { built: false };
  return withLock(outDir, async () => {
    const { fresh, newest } = await freshness(outDir);
    if (fresh) return { built: false };
    const started = Date.now();
    // A process of its own with NODE_ENV=production: React's production build and JSX, whatever this
    // process runs as (the tests run as NODE_ENV=test).
    await promisify(execFile)(
      process.execPath,
      [viteBin, 'build', '--config', configFile, '--outDir', outDir, '--emptyOutDir', '--logLevel', 'warn'],
      {
        cwd: repo,
        env: { ...process.env, NODE_ENV: 'production' },
      },
    );
    await fs.writeFile(path.join(outDir, STAMP), String(newest));
    return { built: true, ms: Date.now() - started };
  });
}
