import path from 'node:path';
import { BrowserWindow, type IpcMainInvokeEvent, Menu, app, ipcMain, powerSaveBlocker, session } from 'electron';
import { bridgeChannels } from '../preload/bridge';
import { APP_ORIGIN, registerAppScheme, serveRenderer } from './protocol';
import { consoleAndFileLog } from './logFile';
import { loadSettings } from './settings';
import { badgePrinterName, handleBadgePrints } from './badgePrinter';
import { lockKeyboard } from './keyboardLock';
import {
  isAppUrl,
  keepOpenUntilQuit,
  kioskWindowOptions,
  lockNavigation,
  recoverUnresponsive,
  reloadFailedLoads,
  reloadOnCrash,
} from './window';

/** The user-data folder's name, under the OS's app-data folder (~/.config on Linux, %APPDATA% on Windows). */
export const USER_DATA_FOLDER = 'Gatehouse Kiosk';

export interface KioskAppOptions {
  /** The built renderer (index.html and its assets). */
  rendererDir: string;
  /** The built preload script (CommonJS: sandboxed preloads cannot load ES modules). */
  preloadPath: string;
  env: NodeJS.ProcessEnv;
  /** Where uncaught errors are reported, and how long the app has run (the process's; tests give their own). */
  events?: Pick<NodeJS.Process, 'on'>;
  uptimeMs?: () => number;
  /** The command line (process.argv): `--quit` stops the running kiosk (Windows has no SIGTERM to send it). */
  argv?: readonly string[];
  log?: (line: string) => void;
}

/** The switch that asks a running kiosk to quit: `"Gatehouse Kiosk.exe" --quit`, or `npm run kiosk -- --quit`. */
export const QUIT_SWITCH = '--quit';

/** An app younger than this that fails again is not restarted: the failure would only repeat, in a loop. */
export const RELAUNCH_AFTER_MS = 60_000;

/**
 * An error nothing caught in the main process: Electron's default shows a modal dialog over the kiosk and
 * leaves it stuck behind it. Logged, and the app starts afresh instead (the outbox is in IndexedDB); one
 * that fails within a minute of its start exits instead, for a supervisor (or a person) to look at.
 */
export function relaunchOnUncaught(
  events: Pick<NodeJS.Process, 'on'>,
  log: (line: string) => void,
  uptimeMs: () => number,
): void {
  events.on('uncaughtException', (error: Error) => {
    const again = uptimeMs() >= RELAUNCH_AFTER_MS;
    log(
      `uncaught error in the main process, ${again ? 'restarting' : 'exiting (it started less than a minute ago)'}: ${error.stack ?? error.message}`,
    );
    if (again) app.relaunch();
    app.exit(1);
  });
}

/** The debug switch for developer tools (KIOSK_DEVTOOLS=1 or true): never set on a kiosk in service. */
export function devToolsRequested(env: NodeJS.ProcessEnv): boolean {
  const value = env.KIOSK_DEVTOOLS?.trim().toLowerCase();
  return value === '1' || value === 'true';
}

/**
 * The main process: it only hosts. One instance per machine (a second launch focuses the first), one
 * full-screen window with no menu, no way-out shortcuts and no close until the app quits, the renderer
 * served from disk, the preset settings handed over on request, and a reload when the renderer dies.
 * Business logic lives in the renderer's kiosk/src, never here.
 * Returns the window once it has loaded, or undefined when another instance already holds the lock
 * (this one then quits, and the other is brought to the front).
 */
export function startKioskApp(options: KioskAppOptions): Promise<BrowserWindow> | undefined {
  // A fixed folder for kiosk.json, kiosk.log (and the lock), whether started from the repository or
  // installed: otherwise Electron names it after whatever package.json it finds, "Electron" when none.
  app.setPath('userData', path.join(app.getPath('appData'), USER_DATA_FOLDER));
  const log = options.log ?? consoleAndFileLog(path.join(app.getPath('userData'), 'kiosk.log'));
  const quitAsked = (options.argv ?? process.argv).includes(QUIT_SWITCH);
  if (!app.requestSingleInstanceLock()) {
    log(
      quitAsked
        ? 'asked the running Gatehouse kiosk to quit'
        : 'another Gatehouse kiosk is already running; focusing it instead',
    );
    app.quit();
    return undefined;
  }
  if (quitAsked) {
    log('no Gatehouse kiosk is running: nothing to quit');
    app.quit();
    return undefined;
  }
  registerAppScheme();
  relaunchOnUncaught(options.events ?? process, log, options.uptimeMs ?? (() => process.uptime() * 1000));
  const windows: BrowserWindow[] = [];

  app.on('second-instance', (_event: unknown, argv: readonly string[] = []) => {
    // Windows has no SIGTERM, and the window refuses a plain close: a second launch with --quit stops it.
    if (argv.includes(QUIT_SWITCH)) {
      log('asked to quit by another launch (--quit)');
      app.quit();
      return;
    }
    const window = windows[0];
    if (!window || window.isDestroyed()) return;
    if (window.isMinimized()) window.restore();
    window.focus();
  });
  // The window refuses to close until this is set: by app.quit(), SIGINT/SIGTERM (Ctrl-C, a service
  // manager), or the OS logging out or shutting down.
  let quitting = false;
  app.on('before-quit', () => {
    quitting = true;
  });
  app.on('window-all-closed', () => app.quit());
  const devTools = devToolsRequested(options.env);

  return app.whenReady().then(async () => {
    const { settings, problems } = loadSettings({ userDataDir: app.getPath('userData'), env: options.env });
    for (const problem of problems) log(problem);
    // Only the app's own page may read the settings (they hold the kiosk token).
    ipcMain.handle(bridgeChannels.presetSettings, (event: IpcMainInvokeEvent) =>
      // The problems too: an installed kiosk has no console, and Settings is where someone looks.
      isAppUrl(event.senderFrame?.url ?? '', APP_ORIGIN)
        ? problems.length > 0
          ? { ...settings, problems }
          : settings
        : {},
    );
    // Badges print silently on the printer the settings name (docs/running-a-site.md, Badges).
    const printer = badgePrinterName({ userDataDir: app.getPath('userData'), env: options.env });
    handleBadgePrints({ printer, appOrigin: APP_ORIGIN, log });
    serveRenderer(options.rendererDir);
    // No menu, hence none of its accelerators (DevTools, reload, close, quit), even with the bar hidden.
    Menu.setApplicationMenu(null);
    if (devTools) log('KIOSK_DEVTOOLS is set: developer tools are enabled (F12 or Ctrl+Shift+I); never in service');
    // A visitor kiosk needs no camera, microphone, notifications or geolocation: refuse every prompt, say
    // no to every check, and save no download (its dialog would be a file browser on the kiosk).
    session.defaultSession.setPermissionRequestHandler((_contents, _permission, callback) => callback(false));
    session.defaultSession.setPermissionCheckHandler(() => false);
    session.defaultSession.on('will-download', (event) => event.preventDefault());
    // A lobby tablet or a gate screen that goes dark (and to the OS lock screen) is a kiosk out of service.
    powerSaveBlocker.start('prevent-display-sleep');

    const window = new BrowserWindow(kioskWindowOptions(options.preloadPath, { devTools }));
    windows.push(window);
    keepOpenUntilQuit(window, () => quitting);
    // Windows emits no before-quit on log-off or shutdown, and the session ends regardless: let it close.
    window.on('session-end', () => {
      quitting = true;
    });
    lockKeyboard(window.webContents, { devTools });
    lockNavigation(window.webContents, APP_ORIGIN);
    const clock = {
      now: () => Date.now(),
      setTimeout: (callback: () => void, ms: number) => setTimeout(callback, ms),
      clearTimeout: (timer: unknown) => clearTimeout(timer as NodeJS.Timeout),
    };
    const page = `${APP_ORIGIN}/index.html`;
    reloadOnCrash(window.webContents, clock, log, () => quitting);
    recoverUnresponsive(window, clock, log);
    reloadFailedLoads(window.webContents, page, clock, log);
    window.once('ready-to-show', () => window.show());
    // A first load that fails is loaded again (reloadFailedLoads) rather than ending the app: resolved once
    // the window has shown the page, or at once if this load worked.
    await window
      .loadURL(page)
      .catch(() => new Promise<void>((resolve) => window.webContents.once('did-finish-load', () => resolve())));
    return window;
  });
}
