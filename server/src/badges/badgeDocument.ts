import PDFDocument from 'pdfkit';
import { type BadgeSize, badgePages } from '../../../shared/src/domain/badge';
import { type FittedLine, type TextItem, drawLines, fitItem, linesHeight } from './badgeText';
import { drawQr } from './qrDrawing';

/** What a badge says, already in words (dates formatted, labels in the badge's language). */
export interface BadgeContent {
  name: string;
  company: string | null;
  /** "Host: Grace Hopper", or null without a host. */
  hostLine: string | null;
  /** "Main lobby · 28 Nov 2026" */
  siteLine: string;
  /** "Valid until 23:59, 28 Nov 2026" */
  validLine: string;
  /** The word of the band: "VISITOR". */
  band: string;
  /** Which way the badge's own words run (`rtl` in Arabic): the labelled lines follow it. */
  dir: 'ltr' | 'rtl';
  qrText: string;
}

const POINTS_PER_MM = 72 / 25.4;
const mm = (value: number) => value * POINTS_PER_MM;

interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
}

/** The visitor's details, largest first: a name may take two lines, the rest one each. */
function detailItems(content: BadgeContent, width: number): TextItem[] {
  const direction = content.dir;
  const items: TextItem[] = [
    { text: content.name, weight: 700, maxSize: width * 0.14, minSize: 7, maxLines: 2 },
    { text: content.company ?? '', weight: 400, maxSize: width * 0.075, minSize: 5.5, maxLines: 1 },
    { text: content.hostLine ?? '', weight: 400, maxSize: width * 0.06, minSize: 5, maxLines: 1, direction },
    { text: content.siteLine, weight: 400, maxSize: width * 0.055, minSize: 5, maxLines: 1, direction },
  ];
  return items.filter((item) => item.text.trim() !== '');
}

/** The details fitted into `box`: shrunk together until they fit its height, then centred in it. */
function drawDetails(doc: PDFKit.PDFDocument, items: TextItem[], box: Box): void {
  let blocks: FittedLine[][] = [];
  for (let scale = 1; scale > 0.3; scale *= 0.9) {
    blocks = items.map((item) => fitItem(item, box.width, scale));
    if (blocks.reduce((height, lines) => height + linesHeight(lines), 0) <= box.height) break;
  }
  const height = blocks.reduce((sum, lines) => sum + linesHeight(lines), 0);
  let top = box.y + Math.max(0, (box.height - height) / 2);
  for (const lines of blocks) top = drawLines(doc, lines, { x: box.x, width: box.width, top });
}

/** The black band with the word VISITOR in white. */
function drawBand(doc: PDFKit.PDFDocument, word: string, direction: BadgeContent['dir'], box: Box): void {
  doc.rect(box.x, box.y, box.width, box.height).fillColor('#000000').fill();
  const lines = fitItem(
    { text: word, weight: 700, maxSize: box.height * 0.62, minSize: 4, maxLines: 1, direction },
    box.width * 0.9,
  );
  const top = box.y + (box.height - linesHeight(lines)) / 2;
  drawLines(doc, lines, { x: box.x, width: box.width, top }, '#FFFFFF');
}

function drawValidity(doc: PDFKit.PDFDocument, text: string, direction: BadgeContent['dir'], box: Box): void {
  const lines = fitItem(
    { text, weight: 700, maxSize: box.height / 1.25, minSize: 4, maxLines: 1, direction },
    box.width,
  );
  drawLines(doc, lines, { x: box.x, width: box.width, top: box.y });
}

/** Portrait labels (62 × 100, 54 × 101, A6): band on top, details, QR code, validity at the foot. */
function portrait(doc: PDFKit.PDFDocument, content: BadgeContent, width: number, height: number): void {
  const margin = mm(3);
  const inner = width - 2 * margin;
  const band = { x: 0, y: 0, width, height: height * 0.12 };
  const validHeight = Math.max(mm(2.5), width * 0.05);
  const valid = { x: margin, y: height - margin - validHeight, width: inner, height: validHeight };
  const qrSize = Math.min(width * 0.5, height * 0.34);
  const qr = { x: (width - qrSize) / 2, y: valid.y - qrSize - mm(1), size: qrSize };
  drawBand(doc, content.band, content.dir, band);
  const top = band.height + mm(2);
  drawDetails(doc, detailItems(content, inner), { x: margin, y: top, width: inner, height: qr.y - top });
  drawQr(doc, content.qrText, qr);
  drawValidity(doc, content.validLine, content.dir, valid);
}

/** A landscape label (89 × 36): QR code on the right, band and details beside it. */
function landscape(doc: PDFKit.PDFDocument, content: BadgeContent, width: number, height: number): void {
  const margin = mm(2);
  const qrSize = height - 2 * margin;
  const qr = { x: width - margin - qrSize, y: margin, size: qrSize };
  const column = qr.x - 2 * margin;
  const band = { x: margin, y: margin, width: column, height: height * 0.2 };
  const validHeight = mm(2.6);
  const valid = { x: margin, y: height - margin - validHeight, width: column, height: validHeight };
  drawBand(doc, content.band, content.dir, band);
  const top = band.y + band.height + mm(1);
  drawDetails(doc, detailItems(content, column), {
    x: margin,
    y: top,
    width: column,
    height: valid.y - top - mm(0.5),
  });
  drawQr(doc, content.qrText, qr);
  drawValidity(doc, content.validLine, content.dir, valid);
}

/**
 * A badge as a PDF of exactly the label's size (one page, vector throughout, its fonts embedded as
 * subsets). Resolves with the whole file: a badge is a few tens of kilobytes.
 */
export function renderBadgePdf(content: BadgeContent, size: BadgeSize): Promise<Buffer> {
  const page = badgePages[size];
  const width = mm(page.widthMm);
  const height = mm(page.heightMm);
  const doc = new PDFDocument({
    size: [width, height],
    margin: 0,
    autoFirstPage: true,
    info: { Title: 'Visitor badge', Creator: 'Gatehouse' },
  });
  const chunks: Buffer[] = [];
  const done = new Promise<Buffer>((resolve, reject) => {
    doc.on('data', (chunk: Buffer) => chunks.push(chunk));
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
  });
  if (width > height) landscape(doc, content, width, height);
  else portrait(doc, content, width, height);
  doc.end();
  return done;
}
