import { defaultKioskDir, ensureKioskBuild } from '../../server/src/kioskApp/build';
import type { BuildResult } from '../../server/src/webApps/viteBuild';

// Apart from kioskWeb.ts, which imports vitest: benchmarks open the kiosk too (bench/gate.ts).

export interface KioskWeb {
  /** Where the server serves the kiosk's production build: `${baseUrl}/kiosk/`. */
  url: string;
}

/**
 * The kiosk's production build, as `npm start` makes it: built into dist/kiosk/renderer when its sources
 * changed since the last build (once per run in practice; test files starting together wait on one lock).
 */
export async function builtKiosk(): Promise<{ dir: string; result: BuildResult }> {
  return { dir: defaultKioskDir, result: await ensureKioskBuild(defaultKioskDir) };
}

/** The kiosk at /kiosk/ of a running server, whose app serves dist/kiosk/renderer (the build above). */
export const kioskWebAt = (server: { baseUrl: string }): KioskWeb => ({ url: `${server.baseUrl}/kiosk/` });
