import path from 'node:path';
import { app } from 'electron';
import { startKioskApp } from './app';

// Entry of the bundled main process (dist/kiosk/main.cjs); the renderer and preload are built beside it.
startKioskApp({
  rendererDir: path.join(__dirname, 'renderer'),
  preloadPath: path.join(__dirname, 'preload.cjs'),
  env: process.env,
})?.catch((error: unknown) => {
  // A kiosk that cannot show its window is of no use on the wall: say why and exit, so a supervisor restarts it.
  console.error('[kiosk] could not start:', error);
  app.exit(1);
});
