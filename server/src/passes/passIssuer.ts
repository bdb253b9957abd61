import { randomBytes } from 'node:crypto';
import { CompactSign } from 'jose';
import QRCode from 'qrcode';
import { PASS_ALGORITHM, PASS_TYPE, type PassClaims } from '../../../shared/src/domain/passes';
import type { SigningKey } from './signingKeys';

/** A new pass's unique id: 128 random bits, base64url. */
export const newPassJti = (): string => randomBytes(16).toString('base64url');

/** Signs a pass (docs/invitations.md, Passes): JWS compact, EdDSA (Ed25519), the key id and the pass's type in its header. */
export async function signPass(key: SigningKey, claims: PassClaims): Promise<string> {
  return new CompactSign(new TextEncoder().encode(JSON.stringify(claims)))
    .setProtectedHeader({ alg: PASS_ALGORITHM, kid: key.kid, typ: PASS_TYPE })
    .sign(key.privateKey);
}

/** The pass as a QR code, a PNG: error correction M, a quiet zone of 4 modules, large enough to print or show. */
export async function passQrPng(token: string): Promise<Buffer> {
  return QRCode.toBuffer(token, { type: 'png', errorCorrectionLevel: 'M', margin: 4, scale: 6 });
}
