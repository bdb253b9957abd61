import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

type Handler = (...args: unknown[]) => unknown;

/** A stand-in for Electron's main-process modules: records what the kiosk asks of them. */
const electron = vi.hoisted(() => {
  const emitter = () => {
    const handlers = new Map<string, Handler[]>();
    return {
      handlers,
      on(event: string, handler: Handler) {
        handlers.set(event, [...(handlers.get(event) ?? []), handler]);
      },
      emit(event: string, ...args: unknown[]) {
        for (const handler of handlers.get(event) ?? []) handler(...args);
      },
    };
  };
  const windows: FakeWindow[] = [];
  /** Makes the next window's load fail, as loadURL does when the page cannot be loaded. */
  const loads = { failNext: false };
  class FakeWindow {
    readonly events = emitter();
    readonly webContents = {
      ...emitter(),
      openHandler: undefined as Handler | undefined,
      setWindowOpenHandler(handler: Handler) {
        this.openHandler = handler;
      },
      reload: vi.fn(),
      loadURL: vi.fn(async () => undefined),
      once(event: string, handler: Handler) {
        this.on(event, handler);
      },
      forcefullyCrashRenderer: vi.fn(),
      toggleDevTools: vi.fn(),
      isDestroyed: () => false,
    };
    minimized = false;
    constructor(readonly options: Record<string, unknown>) {
      windows.push(this);
    }
    on = (event: string, handler: Handler) => this.events.on(event, handler);
    once = (event: string, handler: Handler) => this.events.on(event, handler);
    loadURL = vi.fn(async () => {
      if (!loads.failNext) return;
      loads.failNext = false;
      throw new Error('ERR_FAILED (-2) loading app://kiosk/index.html');
    });
    show = vi.fn();
    focus = vi.fn();
    restore = vi.fn(() => (this.minimized = false));
    isMinimized = () => this.minimized;
    isDestroyed = () => false;
  }
  const app = {
    ...emitter(),
    userData: '',
    requestSingleInstanceLock: vi.fn(() => true),
    quit: vi.fn(),
    exit: vi.fn(),
    relaunch: vi.fn(),
    whenReady: () => Promise.resolve(),
    appData: '',
    setPath: vi.fn((name: string, value: string) => {
      if (name === 'userData') app.userData = value;
    }),
    getPath: (name: string) => (name === 'userData' ? app.userData : name === 'appData' ? app.appData : '/nonexistent'),
  };
  const ipcHandlers = new Map<string, Handler>();
  return {
    app,
    loads,
    windows,
    FakeWindow,
    ipcHandlers,
    ipcMain: { handle: (channel: string, handler: Handler) => ipcHandlers.set(channel, handler) },
    protocol: { registerSchemesAsPrivileged: vi.fn(), handle: vi.fn() },
    Menu: { setApplicationMenu: vi.fn() },
    session: {
      defaultSession: { ...emitter(), setPermissionRequestHandler: vi.fn(), setPermissionCheckHandler: vi.fn() },
    },
    powerSaveBlocker: { start: vi.fn(() => 1) },
    net: { fetch: vi.fn() },
  };
});

vi.mock('electron', () => ({
  app: electron.app,
  BrowserWindow: electron.FakeWindow,
  Menu: electron.Menu,
  ipcMain: electron.ipcMain,
  protocol: electron.protocol,
  session: electron.session,
  powerSaveBlocker: electron.powerSaveBlocker,
  net: electron.net,
}));

const { startKioskApp } = await import('../../kiosk/main/app');
const { kioskWindowOptions, lockNavigation, recoverUnresponsive, reloadFailedLoads, reloadOnCrash } =
  await import('../../kiosk/main/window');
const { loadSettings } = await import('../../kiosk/main/settings');
const { consoleAndFileLog } = await import('../../kiosk/main/logFile');
const { rendererFile } = await import('../../kiosk/main/protocol');
const { bridgeChannels } = await import('../../kiosk/preload/bridge');
const { electronBinary } = await import('../../kiosk/scripts/electronBinary');

let userData: string;

beforeEach(() => {
  const appData = fs.mkdtempSync(path.join(os.tmpdir(), 'gatehouse-kiosk-main-'));
  userData = path.join(appData, 'Gatehouse Kiosk');
  fs.mkdirSync(userData);
  electron.app.appData = appData;
  electron.app.userData = '';
  electron.app.handlers.clear();
  electron.app.requestSingleInstanceLock.mockReturnValue(true);
  electron.app.quit.mockClear();
  electron.protocol.registerSchemesAsPrivileged.mockClear();
  electron.Menu.setApplicationMenu.mockClear();
  electron.windows.length = 0;
  electron.ipcHandlers.clear();
});
afterEach(() => fs.rmSync(path.dirname(userData), { recursive: true, force: true }));

/** Stands in for the process's uncaughtException event. */
const processEvents = {
  handlers: [] as Array<(error: Error) => void>,
  on(_event: string, handler: (error: Error) => void) {
    this.handlers.push(handler);
    return this;
  },
};
let uptimeMs = 3_600_000;
const start = (env: NodeJS.ProcessEnv = {}) =>
  startKioskApp({
    rendererDir: '/opt/kiosk/renderer',
    preloadPath: '/opt/kiosk/preload.cjs',
    env,
    log: () => {},
    events: processEvents as never,
    uptimeMs: () => uptimeMs,
  });

async function startedWindow(env: NodeJS.ProcessEnv = {}) {
  await start(env);
  const window = electron.windows[0];
  if (!window) throw new Error('no window');
  return window;
}

interface Keys {
  key: string;
  code?: string;
  control?: boolean;
  shift?: boolean;
  alt?: boolean;
  meta?: boolean;
}

/** Presses keys in the window as Electron reports them to the main process; true when the press was swallowed. */
function press(window: InstanceType<typeof electron.FakeWindow>, keys: Keys): boolean {
  const preventDefault = vi.fn();
  const letter = /^[a-z]$/i.test(keys.key) ? `Key${keys.key.toUpperCase()}` : keys.key;
  window.webContents.emit(
    'before-input-event',
    { preventDefault },
    {
      type: 'keyDown',
      code: keys.code ?? letter,
      isAutoRepeat: false,
      isComposing: false,
      control: false,
      shift: false,
      alt: false,
      meta: false,
      location: 0,
      modifiers: [],
      ...keys,
    },
  );
  return preventDefault.mock.calls.length > 0;
}

/** Asks the window to close (Alt+F4, the window manager, window.close()); true when the close was refused. */
function closeRefused(window: InstanceType<typeof electron.FakeWindow>): boolean {
  const preventDefault = vi.fn();
  window.events.emit('close', { preventDefault });
  return preventDefault.mock.calls.length > 0;
}

describe('kiosk main process: window', () => {
  it('opens one full-screen kiosk window whose renderer is isolated, sandboxed and without Node', async () => {
    await start();
    expect(electron.windows).toHaveLength(1);
    const options = electron.windows[0]?.options;
    expect(options).toMatchObject({ kiosk: true, fullscreen: true });
    expect(options?.webPreferences).toMatchObject({
      contextIsolation: true,
      nodeIntegration: false,
      sandbox: true,
      webviewTag: false,
      preload: '/opt/kiosk/preload.cjs',
    });
    expect(options).toEqual(kioskWindowOptions('/opt/kiosk/preload.cjs'));
    expect(electron.windows[0]?.loadURL).toHaveBeenCalledWith('app://kiosk/index.html');
    // The app's own scheme is registered before ready, so storage and Web Locks work as on the web.
    expect(electron.protocol.registerSchemesAsPrivileged).toHaveBeenCalledWith([
      expect.objectContaining({ scheme: 'app', privileges: expect.objectContaining({ standard: true, secure: true }) }),
    ]);
  });
});

describe('kiosk main process: no way out from the keyboard', () => {
  it('removes the application menu, whose accelerators open DevTools, reload, close and quit', async () => {
    await start();
    expect(electron.Menu.setApplicationMenu).toHaveBeenCalledWith(null);
  });

  it('disables developer tools unless KIOSK_DEVTOOLS is set', async () => {
    const window = await startedWindow();
    expect(window.options.webPreferences).toMatchObject({ devTools: false });
    electron.windows.length = 0;
    const debug = await startedWindow({ KIOSK_DEVTOOLS: '1' });
    expect(debug.options.webPreferences).toMatchObject({ devTools: true });
  });

  it('swallows the shortcuts that open DevTools, reload, close, quit or leave full screen', async () => {
    const window = await startedWindow();
    const blocked: Keys[] = [
      { key: 'I', control: true, shift: true },
      { key: 'J', control: true, shift: true },
      { key: 'C', control: true, shift: true },
      { key: 'F12' },
      { key: 'i', meta: true, alt: true },
      { key: 'r', control: true },
      { key: 'R', control: true, shift: true },
      { key: 'F5' },
      { key: 'F5', control: true },
      { key: 'w', control: true },
      { key: 'F4', control: true },
      { key: 'F4', alt: true },
      { key: 'q', control: true },
      { key: 'q', meta: true },
      { key: 'F11' },
      { key: 'к', code: 'KeyR', control: true }, // Ctrl+R on a Russian layout
    ];
    for (const keys of blocked) expect(press(window, keys), JSON.stringify(keys)).toBe(true);
    expect(window.webContents.toggleDevTools).not.toHaveBeenCalled();
  });

  it("keeps typing, a scanner's Enter, Tab, Escape and editing shortcuts working", async () => {
    const window = await startedWindow();
    const allowed: Keys[] = [
      { key: 'A' },
      { key: 'b' },
      { key: 'R', shift: true },
      { key: 'q' },
      { key: '7' },
      { key: '-', code: 'Minus' },
      { key: 'Enter', code: 'Enter' },
      { key: 'Tab', code: 'Tab' },
      { key: 'Tab', code: 'Tab', shift: true },
      { key: 'Escape', code: 'Escape' },
      { key: 'Backspace', code: 'Backspace' },
      { key: 'c', control: true },
      { key: 'v', control: true },
      { key: 'a', code: 'KeyQ', control: true }, // select all on AZERTY
      { key: '@', code: 'KeyQ', control: true, alt: true }, // AltGr+Q on a German keyboard
    ];
    for (const keys of allowed) expect(press(window, keys), JSON.stringify(keys)).toBe(false);
  });

  it('with KIOSK_DEVTOOLS, the DevTools shortcuts toggle the tools (there is no menu to do it)', async () => {
    const window = await startedWindow({ KIOSK_DEVTOOLS: '1' });
    expect(press(window, { key: 'F12' })).toBe(true);
    expect(window.webContents.toggleDevTools).toHaveBeenCalledOnce();
    expect(press(window, { key: 'r', control: true })).toBe(true);
  });

  it('refuses to close the window until the app is quitting (SIGTERM, Ctrl-C, log-out)', async () => {
    const window = await startedWindow();
    expect(closeRefused(window)).toBe(true);
    expect(closeRefused(window)).toBe(true);
    electron.app.emit('before-quit', { preventDefault: vi.fn() });
    expect(closeRefused(window)).toBe(false);
  });

  it('lets Windows end the session even though it sends no before-quit then', async () => {
    const window = await startedWindow();
    window.events.emit('session-end', { reasons: ['logoff'] });
    expect(closeRefused(window)).toBe(false);
  });
});

describe('kiosk main process: single instance', () => {
  it('a second launch quits at once, without a window', async () => {
    electron.app.requestSingleInstanceLock.mockReturnValue(false);
    expect(start()).toBeUndefined();
    expect(electron.app.quit).toHaveBeenCalledOnce();
    expect(electron.windows).toHaveLength(0);
    expect(electron.protocol.registerSchemesAsPrivileged).not.toHaveBeenCalled();
  });

  it('the first instance brings its window back when another launch is attempted', async () => {
    await start();
    const window = electron.windows[0];
    if (!window) throw new Error('no window');
    window.minimized = true;
    electron.app.emit('second-instance');
    expect(window.restore).toHaveBeenCalledOnce();
    expect(window.focus).toHaveBeenCalledOnce();
    expect(electron.app.quit).not.toHaveBeenCalled();
  });

  it('a launch with --quit stops the running kiosk (Windows has no SIGTERM), and starts nothing itself', async () => {
    const window = await startedWindow();
    electron.app.emit('second-instance', {}, ['Gatehouse Kiosk.exe', '--quit'], '/');
    expect(electron.app.quit).toHaveBeenCalledOnce();
    expect(window.focus).not.toHaveBeenCalled();
    // The quitting launch itself: with another instance it only asks; alone, it quits without a window.
    electron.app.quit.mockClear();
    electron.windows.length = 0;
    electron.app.requestSingleInstanceLock.mockReturnValue(false);
    expect(
      startKioskApp({ rendererDir: '/r', preloadPath: '/p.cjs', env: {}, argv: ['kiosk', '--quit'], log: () => {} }),
    ).toBeUndefined();
    electron.app.requestSingleInstanceLock.mockReturnValue(true);
    expect(
      startKioskApp({ rendererDir: '/r', preloadPath: '/p.cjs', env: {}, argv: ['kiosk', '--quit'], log: () => {} }),
    ).toBeUndefined();
    expect(electron.app.quit).toHaveBeenCalledTimes(2);
    expect(electron.windows).toHaveLength(0);
  });
});

describe('kiosk main process: navigation lock', () => {
  function lockedContents() {
    const window = new electron.FakeWindow({});
    lockNavigation(window.webContents as never, 'app://kiosk');
    const navigate = (event: string, url: string) => {
      const preventDefault = vi.fn();
      window.webContents.emit(event, { preventDefault }, url);
      return preventDefault.mock.calls.length > 0;
    };
    return { window, navigate };
  }

  it('stays on the app: other origins are refused, the app itself is allowed', () => {
    const { navigate } = lockedContents();
    expect(navigate('will-navigate', 'https://example.com/')).toBe(true);
    expect(navigate('will-navigate', 'file:///etc/passwd')).toBe(true);
    expect(navigate('will-navigate', 'data:text/html,<h1>hi</h1>')).toBe(true);
    expect(navigate('will-navigate', 'app://elsewhere/index.html')).toBe(true);
    expect(navigate('will-redirect', 'http://127.0.0.1:3000/')).toBe(true);
    expect(navigate('will-navigate', 'not a url')).toBe(true);
    expect(navigate('will-navigate', 'app://kiosk/index.html')).toBe(false);
  });

  it('opens no new window and no webview', () => {
    const { window, navigate } = lockedContents();
    expect(window.webContents.openHandler?.({ url: 'https://example.com/' })).toEqual({ action: 'deny' });
    expect(navigate('will-attach-webview', 'https://example.com/')).toBe(true);
  });

  it('gives the preset settings (the kiosk token) to the app page only', async () => {
    fs.writeFileSync(path.join(userData, 'kiosk.json'), JSON.stringify({ token: 'ck_secret' }));
    await start();
    const handler = electron.ipcHandlers.get(bridgeChannels.presetSettings);
    expect(handler?.({ senderFrame: { url: 'https://evil.example/' } })).toEqual({});
    expect(handler?.({ senderFrame: null })).toEqual({});
    expect(handler?.({ senderFrame: { url: 'app://kiosk/index.html' } })).toEqual({ token: 'ck_secret' });
  });

  it('tells the app page what it ignored in kiosk.json and the variables, for its setup screen', async () => {
    fs.writeFileSync(path.join(userData, 'kiosk.json'), JSON.stringify({ token: 'ck_secret', mode: 'lobby' }));
    await start();
    const handler = electron.ipcHandlers.get(bridgeChannels.presetSettings);
    expect(handler?.({ senderFrame: { url: 'app://kiosk/index.html' } })).toEqual({
      token: 'ck_secret',
      problems: [expect.stringMatching(/^Ignored an invalid mode in .*kiosk\.json$/)],
    });
  });

  it('serves files of the renderer folder only', () => {
    expect(rendererFile('/opt/r', 'app://kiosk/')).toBe('/opt/r/index.html');
    expect(rendererFile('/opt/r', 'app://kiosk/assets/index.js')).toBe('/opt/r/assets/index.js');
    // The URL parser folds these dot segments away: the path stays inside the folder.
    expect(rendererFile('/opt/r', 'app://kiosk/%2e%2e/%2e%2e/etc/passwd')).toBe('/opt/r/etc/passwd');
    expect(rendererFile('/opt/r', 'app://kiosk/..%2f..%2fetc/passwd')).toBeUndefined();
    // Not valid percent-encoding, or another host of the scheme: nothing (a 404), not a handler that throws.
    expect(rendererFile('/opt/r', 'app://kiosk/assets/%E0%A4%A.js')).toBeUndefined();
    expect(rendererFile('/opt/r', 'app://elsewhere/index.html')).toBeUndefined();
  });
});

describe('kiosk main process: crash recovery', () => {
  it('reloads a renderer that died, at once, then every 10 s if it keeps dying', () => {
    const window = new electron.FakeWindow({});
    let now = 0;
    const timers: Array<{ ms: number; callback: () => void }> = [];
    let quitting = true;
    reloadOnCrash(
      window.webContents as never,
      { now: () => now, setTimeout: (callback, ms) => timers.push({ ms, callback }) },
      () => {},
      () => quitting,
    );
    // The app quitting ends its renderer: nothing to reload.
    window.webContents.emit('render-process-gone', {}, { reason: 'clean-exit', exitCode: 0 });
    expect(timers).toHaveLength(0);
    quitting = false;
    for (let crash = 0; crash < 4; crash += 1) {
      now += 1_000;
      window.webContents.emit('render-process-gone', {}, { reason: 'crashed', exitCode: 139 });
    }
    expect(timers.map((timer) => timer.ms)).toEqual([0, 0, 0, 10_000]);
    for (const timer of timers) timer.callback();
    expect(window.webContents.reload).toHaveBeenCalledTimes(4);
    now += 120_000; // a quiet spell: the next crash is reloaded at once again
    window.webContents.emit('render-process-gone', {}, { reason: 'oom', exitCode: 1 });
    expect(timers.at(-1)?.ms).toBe(0);
    // A renderer that ends "cleanly" while the app goes on would leave a blank window: reloaded too.
    now += 120_000;
    window.webContents.emit('render-process-gone', {}, { reason: 'clean-exit', exitCode: 0 });
    expect(timers).toHaveLength(6);
  });

  it("loads the page again 5 s after a load of it failed; an aborted load or a frame's is no failure", () => {
    const window = new electron.FakeWindow({});
    const timers: Array<{ ms: number; callback: () => void }> = [];
    reloadFailedLoads(window.webContents as never, 'app://kiosk/index.html', {
      now: () => 0,
      setTimeout: (callback, ms) => timers.push({ ms, callback }),
    });
    window.webContents.emit('did-fail-load', {}, -3, 'ERR_ABORTED', 'app://kiosk/index.html', true);
    window.webContents.emit('did-fail-load', {}, -105, 'ERR_NAME_NOT_RESOLVED', 'https://elsewhere.example/', false);
    expect(timers).toHaveLength(0);
    window.webContents.emit('did-fail-load', {}, -2, 'ERR_FAILED', 'app://kiosk/index.html', true);
    expect(timers.map((timer) => timer.ms)).toEqual([5_000]);
    timers[0]?.callback();
    expect(window.webContents.loadURL).toHaveBeenCalledWith('app://kiosk/index.html');
  });

  it('a first load that fails does not end the app: the window is returned once the page has loaded', async () => {
    electron.loads.failNext = true;
    const starting = start();
    // The window exists once the app is ready; its first load fails, a later one finishes.
    await vi.waitFor(() => expect(electron.windows).toHaveLength(1));
    const window = electron.windows[0];
    if (!window) throw new Error('no window');
    let returned = false;
    void starting?.then(() => (returned = true));
    await Promise.resolve();
    expect(window.loadURL).toHaveBeenCalledOnce();
    window.webContents.emit('did-finish-load');
    await expect(starting).resolves.toBe(window);
    expect(returned).toBe(true);
  });
});

describe('kiosk main process: its log file', () => {
  it('writes each line with its time to kiosk.log, keeps one older file past the limit, and never throws', () => {
    const file = path.join(userData, 'logs', 'kiosk.log');
    const console = vi.spyOn(globalThis.console, 'log').mockImplementation(() => undefined);
    const log = consoleAndFileLog(file, 200);
    log('started');
    expect(fs.readFileSync(file, 'utf8')).toMatch(/^\d{4}-\d\d-\d\dT[\d:.]+Z started\n$/);
    for (let line = 0; line < 10; line += 1) log(`line ${line} ${'x'.repeat(30)}`);
    expect(fs.existsSync(`${file}.1`)).toBe(true);
    expect(fs.statSync(file).size).toBeLessThan(200);
    expect(fs.readFileSync(file, 'utf8')).toContain('line 9');
    // A folder where the file should be: the console still gets the line, and nothing throws.
    const blocked = consoleAndFileLog(path.join(userData, 'logs'));
    expect(() => blocked('still here')).not.toThrow();
    expect(console).toHaveBeenCalledWith('[kiosk] still here');
    console.mockRestore();
  });
});

describe('kiosk main process: an error nothing caught', () => {
  it("restarts the app instead of leaving Electron's error dialog over the kiosk; within a minute of its start it only exits (no loop)", async () => {
    processEvents.handlers.length = 0;
    electron.app.relaunch.mockClear();
    electron.app.exit.mockClear();
    await start();
    expect(processEvents.handlers).toHaveLength(1);
    processEvents.handlers[0]?.(new Error('boom'));
    expect(electron.app.relaunch).toHaveBeenCalledOnce();
    expect(electron.app.exit).toHaveBeenCalledWith(1);
    uptimeMs = 5_000;
    processEvents.handlers[0]?.(new Error('boom at start'));
    expect(electron.app.relaunch).toHaveBeenCalledOnce();
    expect(electron.app.exit).toHaveBeenCalledTimes(2);
    uptimeMs = 3_600_000;
  });
});

describe('kiosk main process: a page that stops answering', () => {
  it('ends the renderer of a page unresponsive for 30 s, which reloads it; one that recovers in time is left alone', () => {
    const window = new electron.FakeWindow({});
    const timers = new Map<number, { ms: number; callback: () => void }>();
    let next = 0;
    const clock = {
      now: () => 0,
      setTimeout: (callback: () => void, ms: number) => {
        timers.set(++next, { ms, callback });
        return next;
      },
      clearTimeout: (timer: unknown) => timers.delete(timer as number),
    };
    reloadOnCrash(window.webContents as never, clock);
    recoverUnresponsive(window as never, clock);

    // A long task that ends in time: nothing is done.
    window.events.emit('unresponsive');
    expect([...timers.values()].map((timer) => timer.ms)).toEqual([30_000]);
    window.events.emit('responsive');
    expect(timers.size).toBe(0);
    expect(window.webContents.forcefullyCrashRenderer).not.toHaveBeenCalled();

    // Stuck for good: the renderer is ended after 30 s (the event repeating meanwhile starts no second timer)…
    window.events.emit('unresponsive');
    window.events.emit('unresponsive');
    expect(timers.size).toBe(1);
    for (const [id, timer] of timers) {
      timers.delete(id);
      timer.callback();
    }
    expect(window.webContents.forcefullyCrashRenderer).toHaveBeenCalledTimes(1);
    // …and its end, a crash, reloads the page.
    window.webContents.emit('render-process-gone', {}, { reason: 'killed', exitCode: 9 });
    for (const timer of timers.values()) timer.callback();
    expect(window.webContents.reload).toHaveBeenCalledTimes(1);
  });

  it("keeps the display awake and the page's timers at full speed; no permission, no download", async () => {
    await start();
    expect(electron.powerSaveBlocker.start).toHaveBeenCalledWith('prevent-display-sleep');
    expect(kioskWindowOptions('/preload.cjs').webPreferences?.backgroundThrottling).toBe(false);
    const check = electron.session.defaultSession.setPermissionCheckHandler.mock.calls.at(-1)?.[0] as
      (() => boolean) | undefined;
    expect(check?.()).toBe(false);
    const preventDefault = vi.fn();
    electron.session.defaultSession.emit('will-download', { preventDefault });
    expect(preventDefault).toHaveBeenCalled();
  });
});

describe('kiosk main process: settings', () => {
  const writeJson = (value: unknown) => fs.writeFileSync(path.join(userData, 'kiosk.json'), JSON.stringify(value));

  it('reads kiosk.json from the user-data folder', () => {
    writeJson({ serverUrl: 'https://gatehouse.example', token: 'ck_abc', siteId: 4, mode: 'gate', extra: true });
    expect(loadSettings({ userDataDir: userData, env: {} })).toEqual({
      settings: { serverUrl: 'https://gatehouse.example', token: 'ck_abc', siteId: 4, mode: 'gate' },
      problems: [],
    });
  });

  it('lets each KIOSK_* variable override its value; empty variables count as unset', () => {
    writeJson({ serverUrl: 'https://gatehouse.example', token: 'ck_abc', siteId: 4, mode: 'gate' });
    const env = {
      KIOSK_SERVER_URL: 'http://10.0.0.5:3000',
      KIOSK_SITE_ID: '7',
      KIOSK_MODE: 'visitor',
      KIOSK_TOKEN: '',
    };
    expect(loadSettings({ userDataDir: userData, env }).settings).toEqual({
      serverUrl: 'http://10.0.0.5:3000',
      token: 'ck_abc',
      siteId: 7,
      mode: 'visitor',
    });
  });

  it('works from the variables alone, and with nothing at all', () => {
    const env = {
      KIOSK_SERVER_URL: 'http://127.0.0.1:3000',
      KIOSK_TOKEN: 'ck_env',
      KIOSK_SITE_ID: '1',
      KIOSK_MODE: 'gate',
    };
    expect(loadSettings({ userDataDir: userData, env }).settings).toEqual({
      serverUrl: 'http://127.0.0.1:3000',
      token: 'ck_env',
      siteId: 1,
      mode: 'gate',
    });
    expect(loadSettings({ userDataDir: userData, env: {} })).toEqual({ settings: {}, problems: [] });
  });

  it('drops invalid values one by one and says which', () => {
    writeJson({ serverUrl: 'not a url', token: 'ck_abc', siteId: -1 });
    const loaded = loadSettings({ userDataDir: userData, env: { KIOSK_MODE: 'lobby' } });
    expect(loaded.settings).toEqual({ token: 'ck_abc' });
    expect(loaded.problems.join('\n')).toMatch(/serverUrl[\s\S]*siteId[\s\S]*mode/);
  });

  it('takes a Settings PIN of 4 to 12 digits from kiosk.json or KIOSK_SETTINGS_PIN, and says when one is refused', () => {
    writeJson({ token: 'ck_abc', settingsPin: '0246' });
    expect(loadSettings({ userDataDir: userData, env: {} })).toEqual({
      settings: { token: 'ck_abc', settingsPin: '0246' },
      problems: [],
    });
    expect(loadSettings({ userDataDir: userData, env: { KIOSK_SETTINGS_PIN: '13579' } }).settings.settingsPin).toBe(
      '13579',
    );
    // A number would lose its leading zeros, letters are not on a PIN pad: refused, by name.
    writeJson({ token: 'ck_abc', settingsPin: 1234 });
    const numeric = loadSettings({ userDataDir: userData, env: { KIOSK_SETTINGS_PIN: '12ab' } });
    // …and Settings stays shut rather than open: the kiosk was meant to have a PIN.
    expect(numeric.settings).toEqual({ token: 'ck_abc', settingsPinInvalid: true });
    expect(numeric.problems).toEqual([
      expect.stringMatching(/invalid settingsPin in KIOSK_SETTINGS_PIN; using settingsPin from .*kiosk\.json instead/),
      expect.stringMatching(/invalid settingsPin in .*kiosk\.json/),
    ]);
    writeJson({ settingsPin: '123' });
    expect(loadSettings({ userDataDir: userData, env: {} }).settings).toEqual({ settingsPinInvalid: true });
    writeJson({ token: 'ck_abc' });
    expect(loadSettings({ userDataDir: userData, env: {} }).settings).toEqual({ token: 'ck_abc' });
  });

  it('ignores a kiosk.json that is not JSON, and says so without quoting it; Settings stay shut, for it may have held a PIN', () => {
    // A trailing comma, as a hand edit leaves one: the PIN in the file must not be lost with the rest.
    fs.writeFileSync(path.join(userData, 'kiosk.json'), '{ "token": "ck_secret", "settingsPin": "2468", }');
    const loaded = loadSettings({ userDataDir: userData, env: { KIOSK_TOKEN: 'ck_env' } });
    expect(loaded.settings).toEqual({ token: 'ck_env', settingsPinInvalid: true });
    expect(loaded.problems).toEqual([expect.stringContaining('not valid JSON')]);
    expect(loaded.problems.join('\n')).not.toContain('ck_secret');
    // A valid PIN from the variable is the PIN then.
    expect(loadSettings({ userDataDir: userData, env: { KIOSK_SETTINGS_PIN: '13579' } }).settings).toEqual({
      settingsPin: '13579',
    });
  });

  it('keeps Settings shut when kiosk.json is there but cannot be read, or is not a JSON object', () => {
    fs.mkdirSync(path.join(userData, 'kiosk.json'));
    const unreadable = loadSettings({ userDataDir: userData, env: {} });
    expect(unreadable.settings).toEqual({ settingsPinInvalid: true });
    expect(unreadable.problems).toEqual([expect.stringMatching(/kiosk\.json could not be read \(EISDIR\); ignored/)]);
    fs.rmdirSync(path.join(userData, 'kiosk.json'));
    writeJson(['2468']);
    expect(loadSettings({ userDataDir: userData, env: {} })).toEqual({
      settings: { settingsPinInvalid: true },
      problems: [expect.stringContaining('is not a JSON object')],
    });
  });

  it('takes blank KIOSK_* variables as unset, and trims the others', () => {
    writeJson({ token: 'ck_abc', siteId: 4 });
    expect(loadSettings({ userDataDir: userData, env: { KIOSK_SITE_ID: '  ', KIOSK_MODE: ' gate ' } })).toEqual({
      settings: { token: 'ck_abc', siteId: 4, mode: 'gate' },
      problems: [],
    });
  });

  it('reads a kiosk.json saved with a UTF-8 byte-order mark (Notepad, PowerShell)', () => {
    const json = JSON.stringify({ serverUrl: 'https://gatehouse.example', token: 'ck_abc', siteId: 4, mode: 'gate' });
    fs.writeFileSync(path.join(userData, 'kiosk.json'), `\uFEFF${json}`, 'utf8');
    expect(loadSettings({ userDataDir: userData, env: {} })).toEqual({
      settings: { serverUrl: 'https://gatehouse.example', token: 'ck_abc', siteId: 4, mode: 'gate' },
      problems: [],
    });
  });

  it("falls back to the file's value when a KIOSK_* variable is invalid, and says so", () => {
    writeJson({ serverUrl: 'https://gatehouse.example', token: 'ck_abc', siteId: 4, mode: 'gate' });
    const env = { KIOSK_MODE: 'Gate', KIOSK_SITE_ID: 'four', KIOSK_TOKEN: 'ck_env' };
    const loaded = loadSettings({ userDataDir: userData, env });
    expect(loaded.settings).toEqual({
      serverUrl: 'https://gatehouse.example',
      token: 'ck_env',
      siteId: 4,
      mode: 'gate',
    });
    expect(loaded.problems).toEqual([
      expect.stringMatching(/siteId.*KIOSK_SITE_ID.*kiosk\.json/),
      expect.stringMatching(/mode.*KIOSK_MODE.*kiosk\.json/),
    ]);
  });

  it('drops a key whose variable and file value are both invalid, naming both', () => {
    writeJson({ mode: 'lobby' });
    const loaded = loadSettings({ userDataDir: userData, env: { KIOSK_MODE: 'Gate' } });
    expect(loaded.settings).toEqual({});
    expect(loaded.problems).toEqual([expect.stringContaining('KIOSK_MODE'), expect.stringContaining('kiosk.json')]);
  });

  it('hands the loaded settings to the renderer through the bridge channel', async () => {
    writeJson({ serverUrl: 'https://gatehouse.example', token: 'ck_abc', siteId: 4, mode: 'visitor' });
    await start();
    const handler = electron.ipcHandlers.get(bridgeChannels.presetSettings);
    expect(handler?.({ senderFrame: { url: 'app://kiosk/index.html' } })).toEqual({
      serverUrl: 'https://gatehouse.example',
      token: 'ck_abc',
      siteId: 4,
      mode: 'visitor',
    });
  });
});

describe('npm run kiosk: finding the Electron binary', () => {
  it('is missing when the package throws (no download happened) or names a file that is not there', () => {
    expect(
      electronBinary(() => {
        throw new Error('Electron failed to install correctly');
      }),
    ).toBeUndefined();
    expect(electronBinary(() => path.join(userData, 'electron'))).toBeUndefined();
    const binary = path.join(userData, 'electron');
    fs.writeFileSync(binary, '');
    expect(electronBinary(() => binary)).toBe(binary);
  });
});
