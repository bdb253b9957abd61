import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import jsQR from 'jsqr';

/**
 * A PDF read back the way a person's tools would (poppler-utils: pdfinfo, pdffonts, pdftotext, pdftoppm),
 * and its QR code decoded from the rendered page (jsQR), so tests check what a printer would get.
 */
export interface PdfReadback {
  /** The first page's size in millimetres. */
  pageMm: { width: number; height: number };
  pages: number;
  /** The text, with the bidi marks pdftotext wraps right-to-left runs in removed. */
  text: string;
  fonts: Array<{ name: string; embedded: boolean }>;
  /** The QR code's text, decoded from the page rendered at 200 dpi; undefined when none is found. */
  qr: string | undefined;
}

const MM_PER_POINT = 25.4 / 72;
const BIDI_MARKS = /[\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;

/** Decodes a binary PGM (P5) image, as `pdftoppm -gray` writes it, into RGBA for jsQR. */
function qrOfGrayImage(pgm: Buffer): string | undefined {
  const header = /^P5\s+(\d+)\s+(\d+)\s+(\d+)\s/.exec(pgm.toString('latin1', 0, 64));
  if (!header) throw new Error('pdftoppm did not write a PGM image');
  const width = Number(header[1]);
  const height = Number(header[2]);
  const pixels = pgm.subarray(header[0].length);
  const rgba = new Uint8ClampedArray(width * height * 4);
  for (let index = 0; index < width * height; index += 1) {
    const gray = pixels[index] ?? 255;
    rgba.set([gray, gray, gray, 255], index * 4);
  }
  return jsQR(rgba, width, height)?.data;
}

export function readPdf(pdf: Buffer | Uint8Array): PdfReadback {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'gatehouse-pdf-'));
  const file = path.join(dir, 'document.pdf');
  try {
    fs.writeFileSync(file, pdf);
    const run = (command: string, args: string[]) => execFileSync(command, [...args], { maxBuffer: 256 * 1024 * 1024 });
    const info = run('pdfinfo', [file]).toString('utf8');
    const size = /Page size:\s+([\d.]+) x ([\d.]+) pts/.exec(info);
    if (!size) throw new Error(`pdfinfo gave no page size:\n${info}`);
    const fonts = run('pdffonts', [file])
      .toString('utf8')
      .split('\n')
      .slice(2)
      .filter((line) => line.trim() !== '')
      .map((line) => {
        const columns = line.trim().split(/\s+/);
        // name, type (one or two words), encoding, then emb sub uni object ID: emb is the 5th from the end.
        return { name: columns[0] ?? '', embedded: columns.at(-5) === 'yes' };
      });
    return {
      pageMm: { width: Number(size[1]) * MM_PER_POINT, height: Number(size[2]) * MM_PER_POINT },
      pages: Number(/Pages:\s+(\d+)/.exec(info)?.[1] ?? 0),
      text: run('pdftotext', ['-enc', 'UTF-8', file, '-']).toString('utf8').replace(BIDI_MARKS, ''),
      fonts,
      qr: qrOfGrayImage(run('pdftoppm', ['-r', '200', '-gray', '-singlefile', file])),
    };
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
