import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { BrowserWindow, type IpcMainInvokeEvent, ipcMain } from 'electron';
import { type BadgePrintOutcome, bridgeChannels } from '../preload/bridge';
import { isAppUrl } from './window';

/** More than any badge (a few tens of kilobytes): anything larger is not one of ours. */
const MOST_BYTES = 5 * 1024 * 1024;
const MICRONS_PER_POINT = 25_400 / 72;

/**
 * The badge printer (docs/running-a-site.md, Badges): KIOSK_PRINTER, else `"printer"` in kiosk.json, as
 * the operating system names it. None named: the app prints no badges (a lobby's office printer is not a
 * label printer, and a kiosk in kiosk mode must not open a print dialog).
 */
export function badgePrinterName(input: { userDataDir: string; env: NodeJS.ProcessEnv }): string | undefined {
  const fromEnv = input.env.KIOSK_PRINTER?.trim();
  if (fromEnv) return fromEnv;
  try {
    const parsed: unknown = JSON.parse(
      fs.readFileSync(path.join(input.userDataDir, 'kiosk.json'), 'utf8').replace(/^\uFEFF/, ''),
    );
    const printer = (parsed as { printer?: unknown } | null)?.printer;
    return typeof printer === 'string' && printer.trim() !== '' ? printer.trim() : undefined;
  } catch {
    // No file, or one settings.ts already reported as unusable.
    return undefined;
  }
}

/** The page size of a PDF's first page (its MediaBox) in microns, as Electron's print takes it. */
export function pdfPageMicrons(pdf: Uint8Array): { width: number; height: number } | undefined {
  const box = /\/MediaBox\s*\[\s*(-?[\d.]+)\s+(-?[\d.]+)\s+(-?[\d.]+)\s+(-?[\d.]+)\s*\]/.exec(
    Buffer.from(pdf.buffer, pdf.byteOffset, pdf.byteLength).toString('latin1'),
  );
  if (!box) return undefined;
  const [x1, y1, x2, y2] = box.slice(1).map(Number) as [number, number, number, number];
  return {
    width: Math.round(Math.abs(x2 - x1) * MICRONS_PER_POINT),
    height: Math.round(Math.abs(y2 - y1) * MICRONS_PER_POINT),
  };
}

/** What the renderer sent, if it is a PDF of a sensible size (the renderer is not trusted with more). */
function pdfOf(sent: unknown): Uint8Array | undefined {
  if (!(sent instanceof Uint8Array) || sent.byteLength === 0 || sent.byteLength > MOST_BYTES) return undefined;
  return Buffer.from(sent.buffer, sent.byteOffset, 5).toString('latin1') === '%PDF-' ? sent : undefined;
}

/**
 * Prints a PDF with no dialog on `printer`: loaded in a hidden window's PDF viewer from a file of its own
 * (removed afterwards), at its own page size with no margins, so a label printer gets exactly the badge.
 */
export async function printPdfSilently(pdf: Uint8Array, printer: string): Promise<BadgePrintOutcome> {
  const pageSize = pdfPageMicrons(pdf);
  if (!pageSize) return { printed: false, reason: 'the PDF has no page size' };
  const file = path.join(os.tmpdir(), `gatehouse-badge-${randomUUID()}.pdf`);
  fs.writeFileSync(file, pdf, { mode: 0o600 });
  const window = new BrowserWindow({
    show: false,
    // The PDF viewer is a plugin; the window is never shown and has no preload.
    webPreferences: { plugins: true, sandbox: true, contextIsolation: true, nodeIntegration: false },
  });
  try {
    await window.loadURL(pathToFileURL(file).href);
    return await new Promise<BadgePrintOutcome>((resolve) => {
      window.webContents.print(
        { silent: true, deviceName: printer, printBackground: true, margins: { marginType: 'none' }, pageSize },
        (success, failureReason) =>
          resolve(success ? { printed: true } : { printed: false, reason: failureReason || 'the printer refused it' }),
      );
    });
  } catch (error) {
    return { printed: false, reason: error instanceof Error ? error.message : String(error) };
  } finally {
    if (!window.isDestroyed()) window.destroy();
    fs.rmSync(file, { force: true });
  }
}

/**
 * Answers the renderer's badge prints: only from the app's own page, only a PDF, only to the named printer
 * (the renderer cannot choose one). Each outcome that is not a print is logged.
 */
export function handleBadgePrints(input: {
  printer: string | undefined;
  appOrigin: string;
  log: (line: string) => void;
  print?: (pdf: Uint8Array, printer: string) => Promise<BadgePrintOutcome>;
}): void {
  const print = input.print ?? printPdfSilently;
  if (input.printer === undefined)
    input.log('no badge printer is named (KIOSK_PRINTER or "printer" in kiosk.json): badges are not printed');
  ipcMain.handle(bridgeChannels.printBadge, async (event: IpcMainInvokeEvent, sent: unknown) => {
    let outcome: BadgePrintOutcome;
    const pdf = pdfOf(sent);
    if (!isAppUrl(event.senderFrame?.url ?? '', input.appOrigin))
      outcome = { printed: false, reason: 'not the kiosk page' };
    else if (!pdf) outcome = { printed: false, reason: 'not a badge PDF' };
    else if (input.printer === undefined) outcome = { printed: false, reason: 'no badge printer is named' };
    else outcome = await print(pdf, input.printer);
    if (!outcome.printed) input.log(`badge not printed: ${outcome.reason}`);
    return outcome;
  });
}
