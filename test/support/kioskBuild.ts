import fs from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build, preview } from 'vite';

// Apart from kioskWeb.ts, which imports vitest: benchmarks serve the kiosk too (bench/gate.ts).
const configFile = fileURLToPath(new URL('../../kiosk/vite.config.ts', import.meta.url));

export interface KioskWeb {
  /** Where the built renderer is served, ending in `/`. */
  url: string;
  close: () => Promise<void>;
}

/**
 * The kiosk renderer as `npm run kiosk:web` serves it, but built once into a folder of this test file and
 * served by Vite's preview server on 127.0.0.1 and a free port (a build has no dependency optimisation that
 * could reload the page half-way through a test, as the dev server may).
 */
export async function serveKioskWeb(): Promise<KioskWeb> {
  const outDir = await fs.mkdtemp(path.join(os.tmpdir(), 'gatehouse-kiosk-web-'));
  await build({ configFile, logLevel: 'warn', build: { outDir, emptyOutDir: true, sourcemap: false } });
  const server = await preview({
    configFile,
    logLevel: 'warn',
    build: { outDir },
    preview: { host: '127.0.0.1', port: 0, strictPort: false },
  });
  const { port } = server.httpServer.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/`,
    async close() {
      await server.close();
      await fs.rm(outDir, { recursive: true, force: true });
    },
  };
}
