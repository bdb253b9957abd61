import { randomBytes, scrypt, timingSafeEqual } from 'node:crypto';

// scrypt with N = 2^15, r = 8, p = 3: one of the settings OWASP's Password Storage Cheat Sheet lists as
// equal to its N = 2^17, r = 8, p = 1 minimum, at 32 MiB a hash instead of 128 (sign-ins run four at once in
// the thread pool). The parameters are stored with each hash: older ones still verify, and are upgraded at
// the next sign-in (needsRehash).
const COST = 2 ** 15;
const BLOCK = 8;
const PARALLEL = 3;
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
const DUMMY_HASH = 'scrypt$32768$8$3$oQsLXADcJrKzPK3eNjhIMg$ZzynIq7iX3odt1SX74iIrUWhaKO_2Bm4gxkNIHsyyfs';

/** Whether a stored hash was made with other parameters than today's (to be replaced at the next sign-in). */
export function needsRehash(stored: string): boolean {
  const [scheme, cost, block, parallel] = stored.split('$');
  return scheme !== 'scrypt' || Number(cost) !== COST || Number(block) !== BLOCK || Number(parallel) !== PARALLEL;
}

/** Whether `password` matches `stored`; with no stored hash, spends the same time and answers false. */
export async function verifyPassword(password: string, stored: string | null): Promise<boolean> {
  const hash = stored ?? DUMMY_HASH;
  const [scheme, cost, block, parallel, salt, key] = hash.split('$');
  if (scheme !== 'scrypt' || !salt || !key) return false;
  const expected = Buffer.from(key, 'base64url');
  const actual = await derive(password, Buffer.from(salt, 'base64url'), Number(cost), Number(block), Number(parallel));
  return stored !== null && actual.length === expected.length && timingSafeEqual(actual, expected);
}
