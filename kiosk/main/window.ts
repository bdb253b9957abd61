import type {
  BrowserWindow,
  BrowserWindowConstructorOptions,
  Event,
  RenderProcessGoneDetails,
  WebContents,
} from 'electron';

/**
 * The one kiosk window: full screen with no way out to the desktop, and a renderer that is a web page
 * only (isolated context, no Node, OS sandbox). The preload script is its only door to the main process.
 * Developer tools would show the kiosk token (IndexedDB) to anyone at the keyboard: off unless the
 * KIOSK_DEVTOOLS debug switch asks for them.
 */
export function kioskWindowOptions(
  preloadPath: string,
  options: { devTools?: boolean } = {},
): BrowserWindowConstructorOptions {
  return {
    kiosk: true,
    fullscreen: true,
    autoHideMenuBar: true,
    backgroundColor: '#f4f6fa',
    show: false,
    webPreferences: {
      preload: preloadPath,
      contextIsolation: true,
      nodeIntegration: false,
      nodeIntegrationInWorker: false,
      sandbox: true,
      webSecurity: true,
      allowRunningInsecureContent: false,
      webviewTag: false,
      spellcheck: false,
      devTools: options.devTools ?? false,
      // The page is the whole app: its sync retries and idle return keep their timing even when the OS
      // counts the window as hidden (a screen saver, another session on top).
      backgroundThrottling: false,
    },
  };
}

/**
 * Refuses every close (Alt+F4, a window manager's close button, the page's window.close()) until the app
 * itself is quitting: a closed window would quit the app and leave the desktop to whoever is at the kiosk.
 */
export function keepOpenUntilQuit(window: BrowserWindow, isQuitting: () => boolean): void {
  window.on('close', (event: Event) => {
    if (!isQuitting()) event.preventDefault();
  });
}

/** Whether `url` belongs to the app itself (same scheme and host as the page the window loaded). */
export function isAppUrl(url: string, appOrigin: string): boolean {
  try {
    const target = new URL(url);
    const app = new URL(appOrigin);
    // Not URL.origin: Node gives every non-http scheme (app:, file:, data:) the same origin "null".
    return target.protocol === app.protocol && target.host === app.host && target.host !== '';
  } catch {
    return false;
  }
}

/**
 * Keeps the window on the app: a link or a script cannot take a lobby tablet to another site, and no
 * new window (or webview) can be opened from it.
 */
export function lockNavigation(contents: WebContents, appOrigin: string): void {
  const guard = (event: Event, url: string) => {
    if (!isAppUrl(url, appOrigin)) event.preventDefault();
  };
  contents.on('will-navigate', guard);
  contents.on('will-redirect', guard);
  contents.on('will-attach-webview', (event) => event.preventDefault());
  contents.setWindowOpenHandler(() => ({ action: 'deny' }));
}

export interface CrashClock {
  now: () => number;
  setTimeout: (callback: () => void, ms: number) => unknown;
}

/** After this many crashes within the window, reloads are spaced out instead of immediate. */
const CRASH_BURST = 3;
const CRASH_WINDOW_MS = 60_000;
const CRASH_PAUSE_MS = 10_000;

/**
 * Reloads the page when its renderer process dies (out of memory, GPU fault, killed): the outbox lives in
 * IndexedDB, so a reload loses nothing. A renderer that keeps crashing is reloaded every 10 s rather than
 * in a tight loop that would burn the CPU of a small kiosk PC.
 */
export function reloadOnCrash(
  contents: WebContents,
  clock: CrashClock,
  log: (line: string) => void = () => {},
  isQuitting: () => boolean = () => false,
): void {
  const recent: number[] = [];
  contents.on('render-process-gone', (_event: Event, details: RenderProcessGoneDetails) => {
    // A renderer that ends while the app quits is meant to; one that ends cleanly otherwise would leave a blank window.
    if (isQuitting()) return;
    const now = clock.now();
    while (recent.length > 0 && (recent[0] ?? now) < now - CRASH_WINDOW_MS) recent.shift();
    recent.push(now);
    const delay = recent.length > CRASH_BURST ? CRASH_PAUSE_MS : 0;
    log(`renderer gone (${details.reason}, exit code ${details.exitCode}); reloading in ${delay} ms`);
    clock.setTimeout(() => {
      if (!contents.isDestroyed()) contents.reload();
    }, delay);
  });
}

/** How long a page may stay unresponsive before its renderer is ended (and reloaded by reloadOnCrash). */
export const UNRESPONSIVE_LIMIT_MS = 30_000;

/**
 * Ends the renderer of a page that stopped answering (a script in an endless loop, a stuck main thread) and
 * has not recovered within UNRESPONSIVE_LIMIT_MS: the window cannot be closed and the way-out shortcuts are
 * off, so without this a frozen gate waits for someone to cut the power. The renderer's end is a crash
 * to reloadOnCrash, which reloads the page; the outbox is in IndexedDB, so nothing is lost.
 */
export function recoverUnresponsive(
  window: BrowserWindow,
  clock: CrashClock & { clearTimeout: (timer: unknown) => void },
  log: (line: string) => void = () => {},
): void {
  let timer: unknown;
  window.on('unresponsive', () => {
    if (timer !== undefined) return;
    log(`page unresponsive; ending its renderer if it is still so in ${UNRESPONSIVE_LIMIT_MS / 1000} s`);
    timer = clock.setTimeout(() => {
      timer = undefined;
      if (window.isDestroyed() || window.webContents.isDestroyed()) return;
      log('page still unresponsive: ending its renderer to reload it');
      window.webContents.forcefullyCrashRenderer();
    }, UNRESPONSIVE_LIMIT_MS);
  });
  window.on('responsive', () => {
    if (timer === undefined) return;
    clock.clearTimeout(timer);
    timer = undefined;
    log('page responsive again');
  });
}

/** Pause before the app page is loaded again after a load that failed. */
export const FAILED_LOAD_RETRY_MS = 5_000;

/**
 * Loads the app page again when loading it failed (the renderer died during the load, a file could not be
 * read): a blank window is a kiosk out of service. An aborted load (-3, one load replacing another) is no
 * failure.
 */
export function reloadFailedLoads(
  contents: WebContents,
  url: string,
  clock: CrashClock,
  log: (line: string) => void = () => {},
): void {
  contents.on(
    'did-fail-load',
    (_event: Event, errorCode: number, errorDescription: string, _validatedURL: string, isMainFrame: boolean) => {
      if (!isMainFrame || errorCode === -3) return;
      log(
        `the page did not load (${errorCode} ${errorDescription}); loading it again in ${FAILED_LOAD_RETRY_MS / 1000} s`,
      );
      clock.setTimeout(() => {
        if (!contents.isDestroyed()) contents.loadURL(url).catch(() => undefined); // A failure is reported by did-fail-load again.
      }, FAILED_LOAD_RETRY_MS);
    },
  );
}
