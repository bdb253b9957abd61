import PDFDocument from 'pdfkit';
import { drawLines, fitItem } from '../badges/badgeText';
import { drawQr } from '../badges/qrDrawing';

/** What the QR poster at a site's door says (docs/running-a-site.md, The visitor's phone). */
export interface PosterContent {
  siteName: string;
  /** "Scan to sign in" */
  callToAction: string;
  /** The page the QR code opens: `{PUBLIC_URL}/visit/{code}`, printed under it too, for a phone without a camera. */
  url: string;
}

const POINTS_PER_MM = 72 / 25.4;
const mm = (value: number) => value * POINTS_PER_MM;
const A4 = { width: mm(210), height: mm(297) };

/**
 * The QR poster: an A4 page (vector, fonts embedded as subsets, the badge's Noto faces so any site name
 * prints): the site's name, the call to scan, a QR code of the visit page 13 cm wide, and its address.
 */
export function renderPosterPdf(content: PosterContent): Promise<Buffer> {
  const doc = new PDFDocument({
    size: [A4.width, A4.height],
    margin: 0,
    autoFirstPage: true,
    info: { Title: `${content.siteName}: scan to sign in`, Creator: 'Gatehouse' },
  });
  const chunks: Buffer[] = [];
  const done = new Promise<Buffer>((resolve, reject) => {
    doc.on('data', (chunk: Buffer) => chunks.push(chunk));
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
  });
  const margin = mm(20);
  const width = A4.width - 2 * margin;
  const site = fitItem({ text: content.siteName, weight: 700, maxSize: 44, minSize: 16, maxLines: 2 }, width);
  let top = drawLines(doc, site, { x: margin, width, top: mm(30) });
  const call = fitItem({ text: content.callToAction, weight: 700, maxSize: 56, minSize: 20, maxLines: 2 }, width);
  top = drawLines(doc, call, { x: margin, width, top: top + mm(10) });
  const qrSize = mm(130);
  const qrTop = Math.max(top + mm(10), mm(95));
  drawQr(doc, content.url, { x: (A4.width - qrSize) / 2, y: qrTop, size: qrSize });
  const address = fitItem(
    { text: content.url, weight: 400, maxSize: 16, minSize: 8, maxLines: 2, direction: 'ltr' },
    width,
  );
  drawLines(doc, address, { x: margin, width, top: qrTop + qrSize + mm(6) });
  doc.end();
  return done;
}
