import QRCode from 'qrcode';
import { pairingLink } from '../../shared/src/schemas/kiosks';

/**
 * The pairing QR as an SVG data URL: sharp at any size, and the same text for the same code in a browser and
 * in Node (so a test can tell what it says).
 */
export async function pairingQr(serverOrigin: string, code: string): Promise<string> {
  const svg = await QRCode.toString(pairingLink(serverOrigin, code), {
    type: 'svg',
    errorCorrectionLevel: 'M',
    margin: 2,
  });
  return `data:image/svg+xml,${encodeURIComponent(svg)}`;
}
