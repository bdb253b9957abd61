import { z } from 'zod';
import { type PassClaims, type PassVerdict, passSeconds } from '../../../shared/src/domain/passes';
import { verifyPass } from '../../../shared/src/passes/passSignature';
import { PassJwk } from '../../../shared/src/schemas/invitations';
import type { KioskDatabase } from './database';
import { type Pairing, stillPaired } from './settings';

/**
 * What the kiosk checks passes with while offline (docs/invitations.md, The kiosk): the account's public
 * keys and the site's revoked passes, as last pulled, and the passes this kiosk has used. Both live in the
 * meta store (no schema version of their own): public keys and pass ids, no one's name.
 */
const COPY_KEY = 'sitePasses';
const USED_KEY = 'usedPasses';

const PassCopy = z.object({
  siteId: z.number().int(),
  accountId: z.number().int(),
  keys: z.array(PassJwk),
  revoked: z.array(z.string()),
  etag: z.string().nullable(),
  fetchedAt: z.number(),
});
export type PassCopy = z.infer<typeof PassCopy>;

/** A pass used here, kept until it would have expired anyway (then no kiosk honours it). */
const UsedPasses = z.array(z.object({ jti: z.string(), exp: z.number() }));

export async function readPassCopy(db: KioskDatabase, siteId: number): Promise<PassCopy | undefined> {
  const parsed = PassCopy.safeParse((await db.meta.get(COPY_KEY))?.value);
  return parsed.success && parsed.data.siteId === siteId ? parsed.data : undefined;
}

/** Keeps a pulled copy, unless the device was paired elsewhere while it was asked for. */
export async function keepPassCopy(db: KioskDatabase, pairing: Pairing | undefined, copy: PassCopy): Promise<void> {
  await db.transaction('rw', [db.meta], async () => {
    if (!pairing || (await stillPaired(db, pairing))) await db.meta.put({ key: COPY_KEY, value: copy });
  });
}

async function readUsed(db: KioskDatabase): Promise<z.infer<typeof UsedPasses>> {
  const parsed = UsedPasses.safeParse((await db.meta.get(USED_KEY))?.value);
  return parsed.success ? parsed.data : [];
}

/**
 * Records that a pass admitted someone here; called inside the check-in's own transaction (the meta store
 * among its tables), so a check-in saved is a pass used. Passes past their end are forgotten on the way.
 */
export async function recordPassUsed(db: KioskDatabase, claims: Pick<PassClaims, 'jti' | 'exp'>, now: number) {
  const kept = (await readUsed(db)).filter((used) => used.exp > passSeconds(new Date(now)));
  await db.meta.put({ key: USED_KEY, value: [...kept, { jti: claims.jti, exp: claims.exp }] });
}

/** A pass as scanned: its verdict, or `noKeys` when this kiosk never received the keys to check it with. */
export type ScannedPass = PassVerdict | { ok: false; problem: 'noKeys' };

/** Checks a scanned or typed pass with this kiosk's copy only: no network is needed or used. */
export async function checkScannedPass(
  db: KioskDatabase,
  siteId: number,
  text: string,
  now: number,
): Promise<ScannedPass> {
  const copy = await readPassCopy(db, siteId);
  if (!copy) return { ok: false, problem: 'noKeys' };
  const used = await readUsed(db);
  return verifyPass(text, {
    keys: copy.keys,
    accountId: copy.accountId,
    siteId,
    now: new Date(now),
    revoked: new Set(copy.revoked),
    usedHere: (jti) => Promise.resolve(used.some((entry) => entry.jti === jti)),
  });
}
