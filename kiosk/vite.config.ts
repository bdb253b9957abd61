import path from 'node:path';
import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { type Plugin, defineConfig } from 'vite';
import { VitePWA } from 'vite-plugin-pwa';

const here = path.dirname(fileURLToPath(import.meta.url));

/** Where `vite build` puts the renderer; Electron's main process serves it from there (dist/kiosk/renderer). */
export const rendererOutDir = path.resolve(here, '../dist/kiosk/renderer');

/**
 * The built page runs only its own scripts (and the QR decoder's WebAssembly) and may call any server (the
 * Gatehouse API is chosen at pairing). Its only frames are the badges it prints (a PDF it made a blob of:
 * kiosk/renderer/badgePrinter.ts). Build only: the dev server injects inline scripts for hot reload,
 * which this would block. The server adds what a meta tag cannot say (server/src/kioskApp/serveKiosk.ts).
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
          "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; style-src 'self' 'unsafe-inline'; img-src 'self' data: blob:; media-src 'self' blob: mediastream:; connect-src *; worker-src 'self'; frame-src blob:",
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

/**
 * The installable web app (docs/kiosk-tablet.md): a manifest, and a service worker (Workbox) that keeps every
 * file of the build on the device, so the page opens offline, even after a reboot. An update waits until
 * the kiosk applies it (registerType 'prompt': kiosk/renderer/update/), never on its own. Its paths are
 * relative, like the build's: served at /kiosk/, the start URL and scope are /kiosk/.
 */
const installableApp = VitePWA({
  registerType: 'prompt',
  injectRegister: false,
  filename: 'sw.js',
  manifestFilename: 'manifest.webmanifest',
  // The icons are in globPatterns below already.
  includeManifestIcons: false,
  manifest: {
    id: './',
    name: 'Gatehouse Kiosk',
    short_name: 'Gatehouse',
    description: 'Visitor check-in and gate kiosk: works offline, syncs when the network is back.',
    lang: 'en',
    start_url: './',
    scope: './',
    display: 'fullscreen',
    display_override: ['fullscreen', 'standalone'],
    orientation: 'any',
    background_color: '#eef1f6',
    theme_color: '#1e40af',
    icons: [
      { src: 'icons/icon-192.png', sizes: '192x192', type: 'image/png', purpose: 'any' },
      { src: 'icons/icon-512.png', sizes: '512x512', type: 'image/png', purpose: 'any' },
      // The same pictures: the house stays inside the circle a mask keeps (kiosk/scripts/drawIcons.ts).
      { src: 'icons/icon-192.png', sizes: '192x192', type: 'image/png', purpose: 'maskable' },
      { src: 'icons/icon-512.png', sizes: '512x512', type: 'image/png', purpose: 'maskable' },
    ],
  },
  workbox: {
    // The whole app shell, the QR decoder's WebAssembly included; not the source maps (the manifest is added by the plugin).
    globPatterns: ['**/*.{html,js,css,wasm,png}'],
    maximumFileSizeToCacheInBytes: 4 * 1024 * 1024,
    // Any page of the scope (with ?server=…&code=… or not) is the app: served from the device when offline.
    navigateFallback: 'index.html',
    // The new service worker takes the page over once the kiosk says so (SKIP_WAITING), not before.
    skipWaiting: false,
    clientsClaim: true,
    cleanupOutdatedCaches: true,
    inlineWorkboxRuntime: true,
    sourcemap: false,
  },
});

// The kiosk renderer: `npm run kiosk:web` serves it, `npm start` builds it for /kiosk, `npm run kiosk` for Electron.
export default defineConfig({
  root: path.join(here, 'renderer'),
  // Relative asset paths, so the same build loads from app://kiosk/ in Electron and from any web path.
  base: './',
  plugins: [react(), contentSecurityPolicy, installableApp],
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
