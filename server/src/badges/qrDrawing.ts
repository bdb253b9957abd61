import QRCode from 'qrcode';

/**
 * A QR code drawn as vector squares (one rectangle per run of dark modules in a row), so it stays sharp at
 * any printer resolution. Medium error correction: a badge gets creased and scratched in a pocket.
 */
export function drawQr(doc: PDFKit.PDFDocument, text: string, box: { x: number; y: number; size: number }): void {
  const { modules } = QRCode.create(text, { errorCorrectionLevel: 'M' });
  const count = modules.size;
  // Four modules of quiet zone on each side, which scanners need to find the code.
  const module = box.size / (count + 8);
  const left = box.x + 4 * module;
  const top = box.y + 4 * module;
  for (let row = 0; row < count; row += 1) {
    let column = 0;
    while (column < count) {
      if (!modules.get(row, column)) {
        column += 1;
        continue;
      }
      const start = column;
      while (column < count && modules.get(row, column)) column += 1;
      doc.rect(left + start * module, top + row * module, (column - start) * module, module);
    }
  }
  doc.fillColor('#000000').fill();
}
