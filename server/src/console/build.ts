import path from 'node:path';
import { type BuildResult, type ViteApp, ensureViteBuild, repo } from '../webApps/viteBuild';

export type { BuildResult };

/** Where the server serves the console from unless told otherwise (console/vite.config.ts builds there). */
export const defaultConsoleDir = path.join(repo, 'dist/console');

const consoleApp: ViteApp = {
  configFile: path.join(repo, 'console/vite.config.ts'),
  sources: ['console', 'shared'].map((folder) => path.join(repo, folder)),
};

/**
 * Builds the console into `outDir` when it is missing or older than its sources (console/ and shared/), and
 * stamps it; another process building the same folder meanwhile is waited for, not raced.
 */
export function ensureConsoleBuild(outDir = defaultConsoleDir): Promise<BuildResult> {
  return ensureViteBuild(consoleApp, outDir);
}
