/** Reads the text of a QR code in the video's current frame; undefined when it shows none. */
export type QrReader = (video: HTMLVideoElement) => Promise<string | undefined>;

// The Shape Detection API, in no TypeScript DOM library yet: only what the kiosk uses.
interface DetectedBarcode {
  rawValue: string;
}
interface BarcodeDetectorInstance {
  detect: (source: HTMLVideoElement) => Promise<DetectedBarcode[]>;
}
interface BarcodeDetectorConstructor {
  new (options: { formats: string[] }): BarcodeDetectorInstance;
  getSupportedFormats: () => Promise<string[]>;
}

/** Which reader this browser gets: its own, or the bundled decoder. */
export type QrReaderKind = 'BarcodeDetector' | 'zxing-wasm';

/**
 * The browser's own BarcodeDetector where it reads QR codes (Safari, Chrome on Android and macOS), else
 * zxing-wasm (its WebAssembly is in the build, kept on the device by the service worker, never a CDN),
 * loaded only now: most kiosks never open the camera.
 */
export async function createQrReader(win: Window): Promise<{ kind: QrReaderKind; read: QrReader }> {
  const Detector = (win as Window & { BarcodeDetector?: BarcodeDetectorConstructor }).BarcodeDetector;
  const formats = Detector ? await Detector.getSupportedFormats().catch((): string[] => []) : [];
  if (Detector && formats.includes('qr_code')) {
    const detector = new Detector({ formats: ['qr_code'] });
    return { kind: 'BarcodeDetector', read: async (video) => (await detector.detect(video))[0]?.rawValue };
  }
  const { zxingReader } = await import('./zxingReader');
  return { kind: 'zxing-wasm', read: await zxingReader(win.document) };
}
