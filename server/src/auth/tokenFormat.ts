import { hash, randomInt } from 'node:crypto';
import { crc32 } from 'node:zlib';

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
const PREFIX = 'ck_';
const RANDOM_LENGTH = 30;
const CHECKSUM_LENGTH = 6;
const TOKEN_PATTERN = /^ck_[0-9A-Za-z]{36}$/;

function base62(value: number, width: number): string {
  let out = '';
  let rest = value;
  for (let i = 0; i < width; i += 1) {
    out = BASE62.charAt(rest % 62) + out;
    rest = Math.floor(rest / 62);
  }
  return out;
}

function checksum(body: string): string {
  return base62(crc32(body), CHECKSUM_LENGTH);
}

/** A new token: `ck_` + 30 random base62 + 6 base62 of the CRC32 of the rest (GitHub style, scanner-friendly). */
export function generateToken(): string {
  let random = '';
  for (let i = 0; i < RANDOM_LENGTH; i += 1) random += BASE62.charAt(randomInt(62));
  return `${PREFIX}${random}${checksum(PREFIX + random)}`;
}

/** Cheap check before any database work: shape and checksum. */
export function isWellFormedToken(token: string): boolean {
  if (!TOKEN_PATTERN.test(token)) return false;
  const body = token.slice(0, token.length - CHECKSUM_LENGTH);
  return checksum(body) === token.slice(-CHECKSUM_LENGTH);
}

/** Only this is stored: SHA-256 of the token. */
export function hashToken(token: string): Buffer {
  return hash('sha256', token, 'buffer');
}
