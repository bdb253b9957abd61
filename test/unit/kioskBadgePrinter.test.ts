import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

type Handler = (...args: unknown[]) => unknown;

/** A stand-in for Electron's main-process modules: a hidden window that records what it is asked to print. */
const electron = vi.hoisted(() => {
  const windows: FakeWindow[] = [];
  /** What the next print answers: Electron's callback arguments. */
  const printer = { success: true, failureReason: '' };
  class FakeWindow {
    destroyed = false;
    loaded: string | undefined;
    /** Whether the PDF file was there when the window loaded it. */
    fileThere = false;
    printed: Record<string, unknown> | undefined;
    readonly webContents = {
      print: (options: Record<string, unknown>, callback: (success: boolean, failureReason: string) => void) => {
        this.printed = options;
        setTimeout(() => callback(printer.success, printer.failureReason), 1);
      },
    };
    constructor(readonly options: Record<string, unknown>) {
      windows.push(this);
    }
    loadURL = vi.fn((url: string) => {
      this.loaded = url;
      this.fileThere = fs.existsSync(fileURLToPath(url));
      return Promise.resolve();
    });
    isDestroyed = () => this.destroyed;
    destroy = () => {
      this.destroyed = true;
    };
  }
  const handlers = new Map<string, Handler>();
  return {
    windows,
    printer,
    FakeWindow,
    handlers,
    ipcMain: { handle: (channel: string, handler: Handler) => handlers.set(channel, handler) },
  };
});

vi.mock('electron', () => ({ BrowserWindow: electron.FakeWindow, ipcMain: electron.ipcMain }));

const { badgePrinterName, handleBadgePrints, pdfPageMicrons } = await import('../../kiosk/main/badgePrinter');
const { bridgeChannels } = await import('../../kiosk/preload/bridge');
const { renderBadgePdf } = await import('../../server/src/badges/badgeDocument');

const APP_ORIGIN = 'app://kiosk';
const fromApp = { senderFrame: { url: `${APP_ORIGIN}/index.html` } };
const content = {
  name: 'Ada Lovelace',
  company: 'Analytical Engines',
  hostLine: 'Host: Grace Hopper',
  siteLine: 'Main lobby · 28 Nov 2026',
  validLine: 'Valid until 23:59, 28 Nov 2026',
  band: 'VISITOR',
  dir: 'ltr' as const,
  qrText: 'gatehouse://checkout?site=1&checkin=42&code=q3Zr8LwT0bXy4KcN',
};

let userData: string;
let lines: string[];
const badgeFiles = () => fs.readdirSync(os.tmpdir()).filter((name) => name.startsWith('gatehouse-badge-'));

beforeEach(() => {
  userData = fs.mkdtempSync(path.join(os.tmpdir(), 'gatehouse-kiosk-printer-'));
  lines = [];
  electron.windows.length = 0;
  electron.handlers.clear();
  Object.assign(electron.printer, { success: true, failureReason: '' });
});
afterEach(() => fs.rmSync(userData, { recursive: true, force: true }));

/** The main process's badge handler, as the preload's `printBadge` reaches it. */
function printHandler(printer: string | undefined) {
  handleBadgePrints({ printer, appOrigin: APP_ORIGIN, log: (line) => lines.push(line) });
  const handler = electron.handlers.get(bridgeChannels.printBadge);
  if (!handler) throw new Error('no badge handler registered');
  return (event: unknown, pdf: unknown) => handler(event, pdf) as Promise<{ printed: boolean; reason?: string }>;
}

describe('the Electron app prints badges silently', () => {
  it('names its printer by KIOSK_PRINTER, else by "printer" in kiosk.json; none named, none', () => {
    expect(badgePrinterName({ userDataDir: userData, env: {} })).toBeUndefined();
    fs.writeFileSync(path.join(userData, 'kiosk.json'), '\uFEFF{"printer": " Brother QL-820NWB "}');
    expect(badgePrinterName({ userDataDir: userData, env: {} })).toBe('Brother QL-820NWB');
    expect(badgePrinterName({ userDataDir: userData, env: { KIOSK_PRINTER: 'DYMO LabelWriter 450' } })).toBe(
      'DYMO LabelWriter 450',
    );
    expect(badgePrinterName({ userDataDir: userData, env: { KIOSK_PRINTER: '  ' } })).toBe('Brother QL-820NWB');
    fs.writeFileSync(path.join(userData, 'kiosk.json'), '{"printer": 5}');
    expect(badgePrinterName({ userDataDir: userData, env: {} })).toBeUndefined();
  });

  it('reads the page size of a badge in microns, as Electron prints it', async () => {
    const size = pdfPageMicrons(await renderBadgePdf(content, '89x36'));
    expect(Math.abs((size?.width ?? 0) - 89_000)).toBeLessThan(100);
    expect(Math.abs((size?.height ?? 0) - 36_000)).toBeLessThan(100);
    expect(pdfPageMicrons(new TextEncoder().encode('%PDF-1.3 no page'))).toBeUndefined();
  });

  it('prints a badge on the named printer with no dialog, at its own size, then leaves no window or file', async () => {
    const print = printHandler('Brother QL-820NWB');
    const pdf = new Uint8Array(await renderBadgePdf(content, '62x100'));
    expect(await print(fromApp, pdf)).toEqual({ printed: true });
    const [window] = electron.windows;
    expect(window?.options).toMatchObject({ show: false, webPreferences: { plugins: true, sandbox: true } });
    expect(window?.loaded).toMatch(/^file:.*gatehouse-badge-.*\.pdf$/);
    expect(window?.fileThere).toBe(true);
    expect(window?.printed).toMatchObject({
      silent: true,
      deviceName: 'Brother QL-820NWB',
      margins: { marginType: 'none' },
    });
    const pageSize = window?.printed?.pageSize as { width: number; height: number };
    expect(Math.abs(pageSize.width - 62_000)).toBeLessThan(100);
    expect(Math.abs(pageSize.height - 100_000)).toBeLessThan(100);
    expect(window?.destroyed).toBe(true);
    expect(badgeFiles()).toEqual([]);
    expect(lines).toEqual([]);
  });

  it('says why when the printer refuses, and prints nothing for another page, a file that is not a PDF, or with no printer named', async () => {
    const pdf = new Uint8Array(await renderBadgePdf(content, '62x100'));
    Object.assign(electron.printer, { success: false, failureReason: 'Print job failed' });
    const print = printHandler('Brother QL-820NWB');
    expect(await print(fromApp, pdf)).toEqual({ printed: false, reason: 'Print job failed' });
    expect(await print({ senderFrame: { url: 'https://elsewhere.example/' } }, pdf)).toMatchObject({ printed: false });
    expect(await print(fromApp, new TextEncoder().encode('<html>not a badge</html>'))).toMatchObject({
      printed: false,
    });
    expect(await print(fromApp, 'a string')).toMatchObject({ printed: false });
    expect(electron.windows).toHaveLength(1);
    expect(lines).toEqual([
      'badge not printed: Print job failed',
      'badge not printed: not the kiosk page',
      'badge not printed: not a badge PDF',
      'badge not printed: not a badge PDF',
    ]);

    electron.handlers.clear();
    lines = [];
    const unnamed = printHandler(undefined);
    expect(lines[0]).toContain('no badge printer is named');
    expect(await unnamed(fromApp, pdf)).toEqual({ printed: false, reason: 'no badge printer is named' });
    expect(electron.windows).toHaveLength(1);
    expect(badgeFiles()).toEqual([]);
  });
});
