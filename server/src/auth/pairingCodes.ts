import { hash, randomInt } from 'node:crypto';
import { PAIRING_ALPHABET, PAIRING_CODE_LENGTH, normalizePairingCode } from '../../../shared/src/schemas/kiosks';

/** How long a pairing code works after it is issued. */
export const PAIRING_CODE_TTL_MS = 15 * 60 * 1000;

/** A new code: 8 crypto-random characters of the unambiguous alphabet (32^8, about 10^12). */
export function generatePairingCode(): string {
  let code = '';
  for (let i = 0; i < PAIRING_CODE_LENGTH; i += 1) code += PAIRING_ALPHABET.charAt(randomInt(PAIRING_ALPHABET.length));
  return code;
}

/** Only this is stored: the SHA-256 of the code as normalized (case, spaces and dashes do not matter). */
export const hashPairingCode = (typed: string): Buffer => hash('sha256', normalizePairingCode(typed), 'buffer');
