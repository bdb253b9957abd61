import fs from 'node:fs/promises';
import QRCode from 'qrcode';

const WIDTH = 640;
const HEIGHT = 480;
/** The fake camera loops the file: a few identical frames are a still picture. */
const FRAMES = 5;
/** Luma of the QR code's dark and light modules (video range). */
const DARK = 16;
const LIGHT = 235;

/**
 * A video of `text`'s QR code, as Chromium's fake camera plays it (`--use-fake-device-for-media-stream
 * --use-file-for-fake-video-capture=<file>`): YUV4MPEG2, 4:2:0, a white frame with the code in the middle
 * and its quiet zone around it. Written from the code's modules, so nothing binary is kept in the repository.
 */
export async function writeQrVideo(file: string, text: string): Promise<void> {
  const { modules } = QRCode.create(text, { errorCorrectionLevel: 'M' });
  const quiet = 4;
  const scale = Math.floor((HEIGHT - 40) / (modules.size + 2 * quiet));
  const left = Math.floor((WIDTH - modules.size * scale) / 2);
  const top = Math.floor((HEIGHT - modules.size * scale) / 2);
  const luma = Buffer.alloc(WIDTH * HEIGHT, LIGHT);
  for (let row = 0; row < modules.size; row += 1)
    for (let column = 0; column < modules.size; column += 1) {
      if (!modules.get(row, column)) continue;
      for (let y = 0; y < scale; y += 1)
        luma.fill(
          DARK,
          (top + row * scale + y) * WIDTH + left + column * scale,
          (top + row * scale + y) * WIDTH + left + (column + 1) * scale,
        );
    }
  // No colour: both chroma planes at their middle value.
  const chroma = Buffer.alloc((WIDTH / 2) * (HEIGHT / 2) * 2, 128);
  const frame = Buffer.concat([Buffer.from('FRAME\n'), luma, chroma]);
  const header = Buffer.from(`YUV4MPEG2 W${WIDTH} H${HEIGHT} F10:1 Ip A1:1 C420jpeg\n`);
  await fs.writeFile(file, Buffer.concat([header, ...Array.from({ length: FRAMES }, () => frame)]));
}
