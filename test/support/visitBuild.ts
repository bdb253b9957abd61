import { defaultVisitDir, ensureVisitBuild } from '../../server/src/visitApp/build';

/** The visitor's phone page as npm start serves it: built into dist/visit when its sources changed. */
export async function builtVisitPage(): Promise<string> {
  await ensureVisitBuild(defaultVisitDir);
  return defaultVisitDir;
}
