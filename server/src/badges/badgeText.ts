import type { Face, Weight } from './fonts';
import { type TextRun, measureLine, runWidth } from './textRuns';

/**
 * Lines of badge text fitted into a width: set as large as allowed, shrunk to fit, and (a long name)
 * broken at a space or, as a last resort, shortened with an ellipsis. Drawn run by run on a common baseline.
 */
export interface TextItem {
  text: string;
  weight: Weight;
  /** Largest and smallest size in points. */
  maxSize: number;
  minSize: number;
  /** A name may take two lines before it is shortened; everything else one. */
  maxLines: 1 | 2;
  /** The label's language's way for a labelled line ("Host: …"), whose label leads; `auto` for a name. */
  direction?: 'auto' | 'ltr' | 'rtl';
}

export interface FittedLine {
  runs: TextRun[];
  size: number;
  width: number;
}

const LINE_HEIGHT = 1.22;

/** Shortens `text` (at its logical end) with an ellipsis, keeping as much as fits at `size`. */
function shortened(text: string, item: TextItem, width: number, size: number): FittedLine {
  const chars = [...text];
  const attempt = (keep: number) =>
    measureLine(`${chars.slice(0, keep).join('').trimEnd()}…`, item.weight, item.direction);
  // Widths grow with what is kept: the longest prefix that fits, by halving.
  let low = 0;
  let high = chars.length - 1;
  while (low < high) {
    const middle = Math.ceil((low + high) / 2);
    if (attempt(middle).unitWidth * size <= width) low = middle;
    else high = middle - 1;
  }
  const line = attempt(low);
  return { runs: low === 0 ? [] : line.runs, size, width: low === 0 ? 0 : line.unitWidth * size };
}

/** One line at the largest size up to `maxSize` that fits, or undefined when even the smallest is too wide. */
function fitOne(text: string, item: TextItem, width: number, maxSize: number): FittedLine | undefined {
  const { runs, unitWidth } = measureLine(text, item.weight, item.direction);
  const size = Math.min(maxSize, unitWidth === 0 ? maxSize : width / unitWidth);
  if (size < item.minSize) return undefined;
  return { runs, size, width: unitWidth * size };
}

/** The lines of one item within `width`, its largest size scaled by `scale` (when the column is short of room). */
export function fitItem(item: TextItem, width: number, scale = 1): FittedLine[] {
  const text = item.text.trim();
  if (text === '') return [];
  const maxSize = Math.max(item.minSize, item.maxSize * scale);
  const whole = fitOne(text, item, width, maxSize);
  const space = text.lastIndexOf(' ');
  if (item.maxLines === 2 && space > 0) {
    const parts = [text.slice(0, space), text.slice(space + 1)];
    const size = Math.min(...parts.map((part) => fitOne(part, item, width, maxSize)?.size ?? item.minSize));
    // Two lines when one would have to shrink by more than a fifth to fit: a name should be read from afar.
    if (!whole || size > whole.size * 1.25)
      return parts.map((part) => fitOne(part, item, width, size) ?? shortened(part, item, width, size));
  }
  return whole ? [whole] : [shortened(text, item, width, item.minSize)];
}

/** The height lines take, from the top of the first to the bottom of the last. */
export const linesHeight = (lines: readonly FittedLine[]) =>
  lines.reduce((height, line) => height + line.size * LINE_HEIGHT, 0);

/**
 * PDFKit (0.17 and later) takes a fontkit font as it is, so a face read once serves every badge; its type
 * declarations list only files and buffers.
 */
const fontSource = (face: Face) => face.font as unknown as PDFKit.Mixins.PDFFontSource;

// The features array makes PDFKit shape each run whole: without one it splits the text at spaces and joins
// the shaped words left to right, which breaks a right-to-left line. Empty: the scripts' default features.
const WHOLE_RUN: PDFKit.Mixins.OpenTypeFeatures[] = [];

/** Draws lines centred in [x, x + width] from `top` down; answers the y below the last. */
export function drawLines(
  doc: PDFKit.PDFDocument,
  lines: readonly FittedLine[],
  box: { x: number; width: number; top: number },
  color = '#000000',
): number {
  let top = box.top;
  for (const line of lines) {
    const baseline = top + line.size * 0.95;
    let x = box.x + (box.width - line.width) / 2;
    for (const run of line.runs) {
      doc
        .font(fontSource(run.face), run.face.key, line.size)
        .fillColor(color)
        .text(run.text, x, baseline, { lineBreak: false, baseline: 'alphabetic', features: WHOLE_RUN });
      x += runWidth(run) * line.size;
    }
    top += line.size * LINE_HEIGHT;
  }
  return top;
}
