import path from 'node:path';
import { BrowserWindow, type IpcMainInvokeEvent, app, ipcMain, session } from 'electron';
import { bridgeChannels } from '../preload/bridge';
import { APP_ORIGIN, registerAppScheme, serveRenderer } from './protocol';
import { loadSettings } from './settings';
import { isAppUrl, kioskWindowOptions, lockNavigation, reloadOnCrash } from './window';

/** The user-data folder's name, under the OS's app-data folder (~/.config on Linux, %APPDATA% on Windows). */
export const USER_DATA_FOLDER = 'Gatehouse Kiosk';

export interface KioskAppOptions {
  /** The built renderer (index.html and its assets). */
  rendererDir: string;
  /** The built preload script (CommonJS: sandboxed preloads cannot load ES modules). */
  preloadPath: string;
  env: NodeJS.ProcessEnv;
  log?: (line: string) => void;
}

/**
 * The main process: it only hosts. One instance per machine (a second launch focuses the first), one
 * full-screen window, the renderer served from disk, the preset settings handed over on request, and a
 * reload when the renderer dies. Business logic lives in the renderer's kiosk/src, never here.
 * Returns the window once it has loaded, or undefined when another instance already holds the lock
 * (this one then quits, and the other is brought to the front).
 */
export function startKioskApp(options: KioskAppOptions): Promise<BrowserWindow> | undefined {
  const log = options.log ?? ((line: string) => console.log(`[kiosk] ${line}`));
  // A fixed folder for kiosk.json (and the lock), whether started from the repository or installed:
  // otherwise Electron names it after whatever package.json it finds, "Electron" when none.
  app.setPath('userData', path.join(app.getPath('appData'), USER_DATA_FOLDER));
  if (!app.requestSingleInstanceLock()) {
    log('another Gatehouse kiosk is already running; focusing it instead');
    app.quit();
    return undefined;
  }
  registerAppScheme();
  const windows: BrowserWindow[] = [];

  app.on('second-instance', () => {
    const window = windows[0];
    if (!window || window.isDestroyed()) return;
    if (window.isMinimized()) window.restore();
    window.focus();
  });
  app.on('window-all-closed', () => app.quit());

  return app.whenReady().then(async () => {
    const { settings, problems } = loadSettings({ userDataDir: app.getPath('userData'), env: options.env });
    for (const problem of problems) log(problem);
    // Only the app's own page may read the settings (they hold the kiosk token).
    ipcMain.handle(bridgeChannels.presetSettings, (event: IpcMainInvokeEvent) =>
      isAppUrl(event.senderFrame?.url ?? '', APP_ORIGIN) ? settings : {},
    );
    serveRenderer(options.rendererDir);
    // A visitor kiosk needs no camera, microphone, notifications or geolocation: refuse every prompt.
    session.defaultSession.setPermissionRequestHandler((_contents, _permission, callback) => callback(false));

    const window = new BrowserWindow(kioskWindowOptions(options.preloadPath));
    windows.push(window);
    lockNavigation(window.webContents, APP_ORIGIN);
    reloadOnCrash(window.webContents, { now: () => Date.now(), setTimeout: (callback, ms) => setTimeout(callback, ms) }, log);
    window.once('ready-to-show', () => window.show());
    await window.loadURL(`${APP_ORIGIN}/index.html`);
    return window;
  });
}
