import path from 'node:path';
import { app, dialog } from 'electron';
import { startKioskApp } from './app';

// Entry of the bundled main process (dist/kiosk/main.cjs); the renderer and preload are built beside it.
startKioskApp({
  rendererDir: path.join(__dirname, 'renderer'),
  preloadPath: path.join(__dirname, 'preload.cjs'),
  env: process.env,
})?.catch((error: unknown) => {
  // A kiosk that cannot show its window is of no use on the wall: say why and exit, so a supervisor restarts it.
  // On the screen too: an installed kiosk has no console, and whoever is in front of it should learn why.
  console.error('[kiosk] could not start:', error);
  dialog.showErrorBox('Gatehouse Kiosk could not start', error instanceof Error ? error.message : String(error));
  app.exit(1);
});
