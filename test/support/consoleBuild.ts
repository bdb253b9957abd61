import { type BuildResult, defaultConsoleDir, ensureConsoleBuild } from '../../server/src/console/build';

/**
 * The console as npm start serves it: built into dist/console when its sources changed since the last build
 * (once per run in practice; test files starting together wait on one lock instead of racing).
 */
export async function builtConsole(): Promise<{ dir: string; result: BuildResult }> {
  return { dir: defaultConsoleDir, result: await ensureConsoleBuild(defaultConsoleDir) };
}
