import { prepareZXingModule, readBarcodes } from 'zxing-wasm/reader';
import wasmUrl from 'zxing-wasm/reader/zxing_reader.wasm?url';
import type { QrReader } from './qrReader';

/**
 * zxing-wasm's QR reader on frames drawn into a canvas. Its WebAssembly comes from this build (the package
 * would fetch it from a CDN otherwise): resolves once it is compiled, rejects if it cannot be loaded.
 */
export async function zxingReader(doc: Document): Promise<QrReader> {
  await prepareZXingModule({
    overrides: { locateFile: (file: string, prefix: string) => (file.endsWith('.wasm') ? wasmUrl : prefix + file) },
    fireImmediately: true,
  });
  const canvas = doc.createElement('canvas');
  const context = canvas.getContext('2d', { willReadFrequently: true });
  return async (video) => {
    if (!context || video.videoWidth === 0 || video.videoHeight === 0) return undefined;
    canvas.width = video.videoWidth;
    canvas.height = video.videoHeight;
    context.drawImage(video, 0, 0);
    const frame = context.getImageData(0, 0, canvas.width, canvas.height);
    const [result] = await readBarcodes(frame, { formats: ['QRCode'], maxNumberOfSymbols: 1, tryHarder: true });
    return result?.isValid && result.text !== '' ? result.text : undefined;
  };
}
