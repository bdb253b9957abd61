import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';

/** How a private key is kept in `pass_signing_keys.private_key` (docs/invitations.md, Signing keys). */
export type Sealing = 'plain' | 'aes-256-gcm';

const IV_BYTES = 12;
const TAG_BYTES = 16;

/** The key that seals private keys: HKDF-SHA-256 of PASS_KEY_SECRET, bound to this one use. */
function sealingKey(secret: string): Buffer {
  return Buffer.from(hkdfSync('sha256', secret, 'gatehouse', 'pass signing keys v1', 32));
}

/** What the sealed key is bound to, so a sealed key copied to another account's row does not open. */
const boundTo = (accountId: number, kid: string) => Buffer.from(`${accountId}:${kid}`);

/**
 * Seals a private key (PKCS#8 DER) with AES-256-GCM under PASS_KEY_SECRET when it is set (iv | tag |
 * ciphertext); without it the key is kept as it is, and says so.
 */
export function sealPrivateKey(
  der: Buffer,
  input: { accountId: number; kid: string; secret: string | undefined },
): { sealed: Buffer; sealing: Sealing } {
  if (!input.secret) return { sealed: der, sealing: 'plain' };
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv('aes-256-gcm', sealingKey(input.secret), iv);
  cipher.setAAD(boundTo(input.accountId, input.kid));
  const ciphertext = Buffer.concat([cipher.update(der), cipher.final()]);
  return { sealed: Buffer.concat([iv, cipher.getAuthTag(), ciphertext]), sealing: 'aes-256-gcm' };
}

/** A sealed key that cannot be opened: PASS_KEY_SECRET is unset, or not the one it was sealed with. */
export class UnsealError extends Error {}

/** The private key (PKCS#8 DER) of a stored row. */
export function openPrivateKey(
  stored: Buffer,
  input: { accountId: number; kid: string; sealing: Sealing; secret: string | undefined },
): Buffer {
  if (input.sealing === 'plain') return stored;
  if (!input.secret) throw new UnsealError('the signing key is sealed and PASS_KEY_SECRET is not set');
  try {
    const decipher = createDecipheriv('aes-256-gcm', sealingKey(input.secret), stored.subarray(0, IV_BYTES));
    decipher.setAAD(boundTo(input.accountId, input.kid));
    decipher.setAuthTag(stored.subarray(IV_BYTES, IV_BYTES + TAG_BYTES));
    return Buffer.concat([decipher.update(stored.subarray(IV_BYTES + TAG_BYTES)), decipher.final()]);
  } catch {
    throw new UnsealError('the signing key does not open with PASS_KEY_SECRET (it was sealed with another)');
  }
}
