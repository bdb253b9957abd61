import path from 'node:path';
import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

const here = path.dirname(fileURLToPath(import.meta.url));

/** Where `vite build` puts the console; the server serves it from there at /console (server/src/console). */
export const consoleOutDir = path.resolve(here, '../dist/console');

// The staff console: the server serves the build at /console (its Content-Security-Policy is a header there);
// `npm run console:dev` serves it with hot reload, passing /v1 to a server on API_URL (default localhost:3000).
export default defineConfig({
  root: here,
  base: '/console/',
  plugins: [react()],
  clearScreen: false,
  build: {
    outDir: consoleOutDir,
    emptyOutDir: true,
    target: ['chrome120', 'firefox120', 'safari16'],
    sourcemap: false,
  },
  server: {
    host: '127.0.0.1',
    port: 5174,
    strictPort: true,
    proxy: { '/v1': { target: process.env.API_URL ?? 'http://127.0.0.1:3000', changeOrigin: false } },
  },
});
