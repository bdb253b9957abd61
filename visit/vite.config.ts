import path from 'node:path';
import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

const here = path.dirname(fileURLToPath(import.meta.url));

// The visitor's phone page: the server serves the build at /visit/{code} (server/src/visitApp), its
// Content-Security-Policy a header there. Phones of the last few years: no older targets.
export default defineConfig({
  root: here,
  base: '/visit/',
  plugins: [react()],
  clearScreen: false,
  build: {
    outDir: path.resolve(here, '../dist/visit'),
    emptyOutDir: true,
    target: ['chrome111', 'firefox111', 'safari16'],
    sourcemap: false,
  },
});
