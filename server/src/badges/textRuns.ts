import bidiFactory from 'bidi-js';
import { type Face, type Weight, fontChain } from './fonts';

/**
 * A line of badge text as runs to draw left to right: each in one face, already in visual order (the
 * Unicode bidirectional algorithm, by bidi-js), so an Arabic or Hebrew name reads right to left, and a
 * Latin company name or a number inside it left to right. Each run is shaped as one piece by fontkit
 * (Arabic joining, marks), which itself lays a right-to-left script's run out right to left.
 */
export interface TextRun {
  face: Face;
  /** The text to hand to the shaper: logical order, except runs fontkit would not reverse (see below). */
  text: string;
}

const bidi = bidiFactory();

/** Letters of a right-to-left script: fontkit sees them and lays the run out right to left by itself. */
const RTL_LETTER = new Set(['R', 'AL']);
const STRONG = new Set(['L', 'R', 'AL', 'EN', 'AN']);

interface Piece {
  face: Face;
  level: number;
  chars: string[];
}

/**
 * Splits `line` into runs of one face and one embedding level, in visual order. `direction` is the
 * paragraph's: `auto` takes it from the first strong character (a name), `ltr` or `rtl` for a labelled
 * line, the way its label's language runs.
 */
export function visualRuns(line: string, weight: Weight, direction: 'auto' | 'ltr' | 'rtl' = 'auto'): TextRun[] {
  if (line === '') return [];
  const chain = fontChain(weight);
  const { levels } = bidi.getEmbeddingLevels(line, direction);
  const pieces: Piece[] = [];
  let index = 0;
  for (const char of line) {
    const level = levels[index] ?? 0;
    const codePoint = char.codePointAt(0) ?? 0;
    const previous = pieces.at(-1);
    // Spaces, punctuation and combining marks stay in the face of what they follow, when it has them.
    const neutral = !STRONG.has(bidi.getBidiCharTypeName(char));
    const face =
      neutral && previous?.face.font.hasGlyphForCodePoint(codePoint)
        ? previous.face
        : (chain.faceFor(codePoint, line) ?? previous?.face ?? chain.fallback());
    if (previous && previous.face === face && previous.level === level) previous.chars.push(char);
    else pieces.push({ face, level, chars: [char] });
    index += char.length;
  }
  return reorder(pieces).map(shapeable);
}

/** Rule L2 of the algorithm, on runs: from the highest level down to the lowest odd one, reverse each stretch at or above it. */
function reorder(pieces: Piece[]): Piece[] {
  const order = [...pieces];
  const highest = Math.max(...order.map((piece) => piece.level));
  const lowestOdd = Math.min(...order.map((piece) => (piece.level % 2 === 1 ? piece.level : Infinity)));
  for (let level = highest; level >= lowestOdd && level > 0; level -= 1) {
    let start = 0;
    while (start < order.length) {
      if ((order[start]?.level ?? 0) < level) {
        start += 1;
        continue;
      }
      let end = start;
      while (end < order.length && (order[end]?.level ?? 0) >= level) end += 1;
      order.splice(start, end - start, ...order.slice(start, end).reverse());
      start = end;
    }
  }
  return order;
}

/**
 * A right-to-left run with mirrored brackets. fontkit reverses a run whose script is right to left; a run
 * that resolved right to left without such a letter (punctuation between two Arabic words) is reversed here.
 */
function shapeable(piece: Piece): TextRun {
  if (piece.level % 2 === 0) return { face: piece.face, text: piece.chars.join('') };
  const mirrored = piece.chars.map((char) => bidi.getMirroredCharacter(char) ?? char);
  const reversedByShaper = piece.chars.some((char) => RTL_LETTER.has(bidi.getBidiCharTypeName(char)));
  return { face: piece.face, text: (reversedByShaper ? mirrored : mirrored.reverse()).join('') };
}

/** A run's width at 1 point, as the shaper lays it out; `unitWidth` times the size is its width at that size. */
export const runWidth = (run: TextRun): number =>
  run.face.font.layout(run.text).advanceWidth / run.face.font.unitsPerEm;

/** A line's runs and its width at 1 point. */
export interface MeasuredLine {
  runs: TextRun[];
  unitWidth: number;
}

// Fitting a badge measures the same few lines many times (sizes, breaks, shortening): shaping is the cost.
const measured = new Map<string, MeasuredLine>();
const MEASURED_KEPT = 2000;

/** The runs of a line and their width at 1 point (remembered for the lines seen last). */
export function measureLine(line: string, weight: Weight, direction: 'auto' | 'ltr' | 'rtl' = 'auto'): MeasuredLine {
  const key = `${weight}${direction}${line}`;
  let result = measured.get(key);
  if (!result) {
    const runs = visualRuns(line, weight, direction);
    result = { runs, unitWidth: runs.reduce((width, run) => width + runWidth(run), 0) };
    if (measured.size >= MEASURED_KEPT) measured.clear();
    measured.set(key, result);
  }
  return result;
}
