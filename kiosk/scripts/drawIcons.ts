import fs from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import zlib from 'node:zlib';

// Draws the kiosk's app icons (kiosk/renderer/public/icons/): a white house with a door on the kiosk's
// blue, edge to edge, so one picture serves as a plain icon and as a maskable one (the house stays inside
// the central circle a mask keeps). Run `node --import tsx kiosk/scripts/drawIcons.ts` after changing it.

const iconDir = fileURLToPath(new URL('../renderer/public/icons/', import.meta.url));
const SIZES: Record<string, number> = { 'icon-192.png': 192, 'icon-512.png': 512, 'apple-touch-icon.png': 180 };
const BLUE = [0x1e, 0x40, 0xaf];
const WHITE = [0xff, 0xff, 0xff];
/** Samples per pixel along each axis: the edges are shades between blue and white, not stairs. */
const SAMPLES = 4;

/** Whether a point of the unit square (0..1 both ways, y down) is white: in the roof or the walls, not the door. */
function isWhite(x: number, y: number): boolean {
  const roofHalfWidth = ((y - 0.27) / (0.47 - 0.27)) * 0.23;
  const roof = y >= 0.27 && y <= 0.47 && Math.abs(x - 0.5) <= roofHalfWidth;
  const walls = x >= 0.32 && x <= 0.68 && y >= 0.45 && y <= 0.73;
  const door = (x >= 0.44 && x <= 0.56 && y >= 0.58 && y <= 0.73) || Math.hypot(x - 0.5, y - 0.58) <= 0.06;
  return (roof || walls) && !door;
}

function chunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(zlib.crc32(body));
  return Buffer.concat([length, body, crc]);
}

/** An 8-bit palette PNG: one palette entry per share of white in a pixel, so the file stays small. */
function drawIcon(size: number): Buffer {
  const shades = SAMPLES * SAMPLES + 1;
  const palette = Buffer.alloc(shades * 3);
  for (let shade = 0; shade < shades; shade += 1) {
    const white = shade / (shades - 1);
    for (let channel = 0; channel < 3; channel += 1) {
      palette[shade * 3 + channel] = Math.round((BLUE[channel] ?? 0) * (1 - white) + (WHITE[channel] ?? 0) * white);
    }
  }
  const rows = Buffer.alloc(size * (size + 1));
  for (let py = 0; py < size; py += 1) {
    rows[py * (size + 1)] = 0; // filter: none
    for (let px = 0; px < size; px += 1) {
      let covered = 0;
      for (let sy = 0; sy < SAMPLES; sy += 1)
        for (let sx = 0; sx < SAMPLES; sx += 1)
          if (isWhite((px + (sx + 0.5) / SAMPLES) / size, (py + (sy + 0.5) / SAMPLES) / size)) covered += 1;
      rows[py * (size + 1) + 1 + px] = covered;
    }
  }
  const header = Buffer.alloc(13);
  header.writeUInt32BE(size, 0);
  header.writeUInt32BE(size, 4);
  header.set([8, 3, 0, 0, 0], 8); // bit depth 8, palette, deflate, no filter method, no interlace
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('PLTE', palette),
    chunk('IDAT', zlib.deflateSync(rows, { level: 9 })),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

await fs.mkdir(iconDir, { recursive: true });
for (const [name, size] of Object.entries(SIZES)) {
  await fs.writeFile(path.join(iconDir, name), drawIcon(size));
  console.log(`Drew ${path.join('kiosk/renderer/public/icons', name)} (${size}×${size})`);
}
