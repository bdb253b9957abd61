import { verifyAsync } from '@noble/ed25519';
import { base64url, compactVerify, errors, importJWK } from 'jose';
import { z } from 'zod';
import {
  PASS_ALGORITHM,
  PASS_TYPE,
  type PassClaims,
  type PassVerdict,
  judgePass,
  looksLikePass,
} from '../domain/passes';
import { Id, IntId } from '../schemas/common';
import type { PassJwk } from '../schemas/invitations';

const Header = z.object({ alg: z.string(), kid: z.string().optional(), typ: z.string().optional() });
const Seconds = z.number().int().min(0).max(253_402_300_799);
const Claims = z.object({
  acct: IntId,
  inv: Id,
  site: IntId,
  firstName: z.string().max(100),
  lastName: z.string().max(100),
  nbf: Seconds,
  exp: Seconds,
  jti: z.string().min(8).max(64),
});

/**
 * The outcome of a pass's signature: its claims, signed by the key `kid` of `keys`; or not a pass at all
 * (another QR code, a damaged scan); signed by no key of `keys` (`unknownKey`: another account's, or made
 * up); or not signed by the key it names (`forged`: altered after signing).
 */
export type SignatureCheck =
  | { ok: true; claims: PassClaims; kid: string }
  | { ok: false; problem: 'notAPass' }
  | { ok: false; problem: 'unknownKey' | 'forged'; claims: PassClaims };

const decodeJson = (part: string): unknown => JSON.parse(new TextDecoder().decode(base64url.decode(part)));

/** What a pass says before its signature is checked, or undefined when the text is no pass of ours. */
function readUnverified(token: string): { kid: string | undefined; claims: PassClaims } | undefined {
  const [headerPart = '', payloadPart = ''] = token.split('.');
  let header: z.infer<typeof Header>;
  let claims: PassClaims;
  try {
    const parsedHeader = Header.safeParse(decodeJson(headerPart));
    const parsedClaims = Claims.safeParse(decodeJson(payloadPart));
    if (!parsedHeader.success || !parsedClaims.success) return undefined;
    header = parsedHeader.data;
    claims = parsedClaims.data;
  } catch {
    return undefined;
  }
  if (header.typ !== PASS_TYPE) return undefined;
  // Ours in form, but not signed as ours are (`none`, an HMAC made up with a public key): no key of ours.
  return { kid: header.alg === PASS_ALGORITHM ? header.kid : undefined, claims };
}

/** Ed25519 by the platform's WebCrypto, through jose; undefined when the platform has no Ed25519 (older Safari). */
async function verifiedByWebCrypto(token: string, jwk: PassJwk): Promise<boolean | undefined> {
  let key: Awaited<ReturnType<typeof importJWK>>;
  try {
    key = await importJWK({ kty: jwk.kty, crv: jwk.crv, x: jwk.x }, PASS_ALGORITHM);
  } catch {
    return undefined;
  }
  try {
    await compactVerify(token, key, { algorithms: [PASS_ALGORITHM] });
    return true;
  } catch (error) {
    if (error instanceof errors.JOSENotSupported) return undefined;
    return false;
  }
}

/** Ed25519 in plain JavaScript (@noble/ed25519, RFC 8032 strict), where WebCrypto has none. */
async function verifiedByScript(token: string, jwk: PassJwk): Promise<boolean> {
  const [header = '', payload = '', signature = ''] = token.split('.');
  try {
    return await verifyAsync(
      base64url.decode(signature),
      new TextEncoder().encode(`${header}.${payload}`),
      base64url.decode(jwk.x),
      { zip215: false },
    );
  } catch {
    return false;
  }
}

/**
 * Checks a pass's signature against a set of public keys (docs/invitations.md, Verifying a pass), offline:
 * WebCrypto's Ed25519 where the platform has it (Chromium, Electron, Safari 17, Node), else a pure-JS
 * verifier. `webCrypto: false` takes the pure-JS path (tests of older platforms).
 */
export async function checkPassSignature(
  text: string,
  keys: readonly PassJwk[],
  options: { webCrypto?: boolean } = {},
): Promise<SignatureCheck> {
  const token = text.trim();
  if (!looksLikePass(token)) return { ok: false, problem: 'notAPass' };
  const read = readUnverified(token);
  if (read === undefined) return { ok: false, problem: 'notAPass' };
  if (read.kid === undefined) return { ok: false, problem: 'forged', claims: read.claims };
  const jwk = keys.find((key) => key.kid === read.kid);
  if (!jwk) return { ok: false, problem: 'unknownKey', claims: read.claims };
  const byPlatform = options.webCrypto === false ? undefined : await verifiedByWebCrypto(token, jwk);
  const genuine = byPlatform ?? (await verifiedByScript(token, jwk));
  return genuine
    ? { ok: true, claims: read.claims, kid: jwk.kid }
    : { ok: false, problem: 'forged', claims: read.claims };
}

/**
 * A kiosk's whole check of a scanned pass, offline: its signature by a key of the account, then the rules of
 * `judgePass` (site, revoked, validity now, used on this kiosk). A pass signed by a key the kiosk does not
 * hold is another account's when it says so, else forged.
 */
export async function verifyPass(
  text: string,
  here: {
    keys: readonly PassJwk[];
    accountId: number;
    siteId: number;
    now: Date;
    revoked: ReadonlySet<string>;
    usedHere: (jti: string) => Promise<boolean>;
    webCrypto?: boolean;
  },
): Promise<PassVerdict> {
  const signature = await checkPassSignature(text, here.keys, { webCrypto: here.webCrypto });
  if (!signature.ok) {
    if (signature.problem === 'notAPass') return { ok: false, problem: 'notAPass' };
    const { claims } = signature;
    const foreign = signature.problem === 'unknownKey' && claims.acct !== here.accountId;
    return { ok: false, problem: foreign ? 'otherAccount' : 'forged', claims };
  }
  const usedHere = await here.usedHere(signature.claims.jti);
  return judgePass(signature.claims, { ...here, usedHere });
}
