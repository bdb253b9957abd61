import fs from 'node:fs';
import { createRequire } from 'node:module';
import * as fontkit from 'fontkit';
import { sfntFromWoff } from './woff';

/**
 * The badge's fonts: the Noto families of @fontsource, installed by `npm install` (no system font is ever
 * used, so a badge looks the same on every server). Fontsource ships each family split into subsets (a
 * script, or for Chinese and Japanese a whole-script file plus about a hundred numbered slices that together
 * hold the full font), as WOFF files, unpacked once here (woff.ts) for PDFKit to embed and subset. A character is set in the first face
 * that has it, in the order below; a face is read from disk the first time it is needed, then kept.
 */

export type Weight = 400 | 700;

/** One font file of a family, and (for the numbered slices) the characters it holds, from unicode.json. */
interface FaceFile {
  /** The PDFKit font cache key: unique per file. */
  key: string;
  path: string;
  ranges?: ReadonlyArray<readonly [number, number]>;
}

export interface Face {
  key: string;
  font: fontkit.Font;
}

const require = createRequire(import.meta.url);

/** A file of an installed @fontsource package (resolved through the package, wherever npm put it). */
const fontFile = (family: string, subset: string, weight: Weight) =>
  require.resolve(`@fontsource/${family}/files/${family}-${subset}-${weight}-normal.woff`);

/** `U+4e00-4e0f,U+4e20` as [start, end] pairs. */
function parseRanges(text: string): Array<[number, number]> {
  return text.split(',').map((part) => {
    const [start = '0', end] = part.trim().replace(/^U\+/i, '').split('-');
    return [parseInt(start, 16), parseInt(end ?? start, 16)];
  });
}

/** The named subsets of a family, then its numbered slices with their ranges (Chinese and Japanese only). */
function familyFiles(family: string, named: readonly string[], weight: Weight): FaceFile[] {
  const files: FaceFile[] = named.map((subset) => ({
    key: `${family}-${subset}-${weight}`,
    path: fontFile(family, subset, weight),
  }));
  const unicode = JSON.parse(fs.readFileSync(require.resolve(`@fontsource/${family}/unicode.json`), 'utf8')) as Record<
    string,
    string
  >;
  for (const [name, ranges] of Object.entries(unicode)) {
    const slice = /^\[(\d+)\]$/.exec(name)?.[1];
    if (slice === undefined) continue;
    files.push({
      key: `${family}-${slice}-${weight}`,
      path: fontFile(family, slice, weight),
      ranges: parseRanges(ranges),
    });
  }
  return files;
}

const LATIN = ['latin', 'latin-ext', 'cyrillic', 'cyrillic-ext', 'greek', 'greek-ext', 'vietnamese'] as const;

/** Kana, in the Japanese font only: a line with any is Japanese, and its Han characters take Japanese forms. */
const KANA = /[\u3040-\u30ff\u31f0-\u31ff\uff66-\uff9f]/;

function chains(weight: Weight) {
  const common = [
    ...familyFiles('noto-sans', LATIN, weight),
    ...familyFiles('noto-sans-arabic', ['arabic'], weight),
    ...familyFiles('noto-sans-hebrew', ['hebrew'], weight),
  ];
  const chinese = familyFiles('noto-sans-sc', ['chinese-simplified'], weight);
  const japanese = familyFiles('noto-sans-jp', ['japanese'], weight);
  return { chinese: [...common, ...chinese, ...japanese], japanese: [...common, ...japanese, ...chinese] };
}

const loaded = new Map<string, Face>();

function load(file: FaceFile): Face {
  let face = loaded.get(file.key);
  if (!face) {
    const font = fontkit.create(sfntFromWoff(fs.readFileSync(file.path)));
    if (!('layout' in font)) throw new Error(`${file.path} is a font collection, not a font`);
    face = { key: file.key, font };
    loaded.set(file.key, face);
  }
  return face;
}

const holds = (file: FaceFile, codePoint: number) =>
  file.ranges === undefined || file.ranges.some(([start, end]) => codePoint >= start && codePoint <= end);

/** The faces of one weight, and which of them sets a character of a given line. */
export interface FontChain {
  /** The face for `codePoint` in `line`, or undefined when no installed font has it. */
  faceFor: (codePoint: number, line: string) => Face | undefined;
  /** The face used for text that no font has (its missing-glyph box), and for measuring plain Latin. */
  fallback: () => Face;
}

const cache = new Map<Weight, FontChain>();

export function fontChain(weight: Weight): FontChain {
  let chain = cache.get(weight);
  if (chain) return chain;
  const files = chains(weight);
  chain = {
    faceFor(codePoint, line) {
      const order = KANA.test(line) ? files.japanese : files.chinese;
      for (const file of order) {
        if (!holds(file, codePoint)) continue;
        const face = load(file);
        if (face.font.hasGlyphForCodePoint(codePoint)) return face;
      }
      return undefined;
    },
    fallback: () => load(files.chinese[0] as FaceFile),
  };
  cache.set(weight, chain);
  return chain;
}
