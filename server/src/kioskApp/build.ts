import path from 'node:path';
import { type BuildResult, type ViteApp, ensureViteBuild, repo } from '../webApps/viteBuild';

/**
 * The kiosk's production build: the server serves it at /kiosk and the Electron app loads it from disk
 * (kiosk/vite.config.ts builds there; kiosk/scripts/buildApp.ts uses this folder too).
 */
export const defaultKioskDir = path.join(repo, 'dist/kiosk/renderer');

const kioskApp: ViteApp = {
  configFile: path.join(repo, 'kiosk/vite.config.ts'),
  // package.json too: its version is the app version a kiosk reports, and a new one is a new build.
  sources: ['kiosk/renderer', 'kiosk/src', 'kiosk/preload', 'kiosk/vite.config.ts', 'shared', 'package.json'].map(
    (source) => path.join(repo, source),
  ),
};

/**
 * Builds the kiosk into `outDir` when it is missing or older than its sources, and stamps it; another
 * process building the same folder meanwhile is waited for, not raced.
 */
export function ensureKioskBuild(outDir = defaultKioskDir): Promise<BuildResult> {
  return ensureViteBuild(kioskApp, outDir);
}
