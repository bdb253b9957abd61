import path from 'node:path';
import { type BuildResult, type ViteApp, ensureViteBuild, repo } from '../webApps/viteBuild';

/** Where the server serves the visitor's phone page from (visit/vite.config.ts builds there). */
export const defaultVisitDir = path.join(repo, 'dist/visit');

const visitApp: ViteApp = {
  configFile: path.join(repo, 'visit/vite.config.ts'),
  sources: ['visit', 'shared'].map((folder) => path.join(repo, folder)),
};

/** Builds the phone page into `outDir` when it is missing or older than its sources (visit/ and shared/). */
export function ensureVisitBuild(outDir = defaultVisitDir): Promise<BuildResult> {
  return ensureViteBuild(visitApp, outDir);
}
