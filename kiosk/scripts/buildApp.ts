import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'vite';
import { ensureKioskBuild } from '../../server/src/kioskApp/build';

const repo = fileURLToPath(new URL('../../', import.meta.url));
/** Everything the Electron app runs: main.cjs, preload.cjs and renderer/ (electron-builder packs this folder). */
export const kioskDist = path.join(repo, 'dist/kiosk');
export const mainBundle = path.join(kioskDist, 'main.cjs');

/** One self-contained CommonJS file: Electron's sandboxed preload cannot load ES modules or node_modules. */
async function bundle(entry: string, name: string): Promise<void> {
  await build({
    configFile: false,
    logLevel: 'warn',
    root: repo,
    build: {
      ssr: path.join(repo, entry),
      outDir: kioskDist,
      emptyOutDir: false,
      target: 'node20',
      minify: false,
      sourcemap: true,
      rolldownOptions: { external: ['electron'], output: { format: 'cjs', entryFileNames: `${name}.cjs` } },
    },
    // Bundle zod and the rest in: the packaged app ships no node_modules.
    ssr: { noExternal: true },
  });
}

/**
 * Builds the renderer (kiosk/vite.config.ts: the same build the server serves at /kiosk, made only when its
 * sources changed), the main process and the preload into dist/kiosk.
 */
export async function buildKioskApp(): Promise<void> {
  await ensureKioskBuild(path.join(kioskDist, 'renderer'));
  await bundle('kiosk/main/index.ts', 'main');
  await bundle('kiosk/preload/preload.ts', 'preload');
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  await buildKioskApp();
  console.log(`Built the kiosk app into ${path.relative(process.cwd(), kioskDist)}/`);
}
