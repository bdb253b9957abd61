import path from 'node:path';
import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { type Plugin, defineConfig } from 'vite';

const here = path.dirname(fileURLToPath(import.meta.url));

/** Where `vite build` puts the renderer; Electron's main process serves it from there (dist/kiosk/renderer). */
export const rendererOutDir = path.resolve(here, '../dist/kiosk/renderer');

/**
 * The built page runs only its own scripts and may call any server (the Gatehouse API is chosen at
 * pairing). Its only frames are the badges it prints (a PDF it made a blob of: kiosk/renderer/badgePrinter.ts). Build only: the dev server injects inline scripts for hot reload, which this would block.
 */
const contentSecurityPolicy: Plugin = {
  name: 'gatehouse-csp',
  apply: 'build',
  transformIndexHtml: () => [
    {
      tag: 'meta',
      attrs: {
        'http-equiv': 'Content-Security-Policy',
        content:
          "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; connect-src *; frame-src blob:",
      },
      injectTo: 'head-prepend',
    },
  ],
};

/** `${KIOSK_WEB_PORT:-5173}` as a shell reads it: an empty or blank variable counts as unset, not as port 0. */
export function kioskWebPort(env: NodeJS.ProcessEnv): number {
  const value = env.KIOSK_WEB_PORT?.trim();
  return value === undefined || value === '' ? 5173 : Number(value);
}

// The kiosk renderer: `npm run kiosk:web` serves it, `npm run kiosk` builds it for Electron.
export default defineConfig({
  root: path.join(here, 'renderer'),
  // Relative asset paths, so the same build loads from app://kiosk/ in Electron and from any web path.
  base: './',
  plugins: [react(), contentSecurityPolicy],
  clearScreen: false,
  build: {
    outDir: rendererOutDir,
    emptyOutDir: true,
    target: 'chrome120',
    sourcemap: true,
    // One bundle on purpose: the kiosk loads from disk (or once, then works offline); splitting gains nothing.
    chunkSizeWarningLimit: 1024,
  },
  server: {
    host: '127.0.0.1',
    port: kioskWebPort(process.env),
    strictPort: true,
  },
  preview: {
    host: '127.0.0.1',
    port: kioskWebPort(process.env),
    strictPort: true,
  },
});
