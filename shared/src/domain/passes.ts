/**
 * Passes (docs/invitations.md, Passes): what a signed pass says, and whether a kiosk or the server honours
 * it. Pure: the signature is checked elsewhere (shared/src/passes/passSignature.ts), the time is passed in.
 */

/** The JWS `typ` of a pass, so no other token signed by anyone is mistaken for one. */
export const PASS_TYPE = 'gatehouse-pass+jwt';
/** The one signature algorithm of a pass (Ed25519). */
export const PASS_ALGORITHM = 'EdDSA';

/** What a pass says: its JWT claims. `nbf` is the invitation's `validFrom`, `exp` its `validUntil` (seconds). */
export interface PassClaims {
  /** The account whose key signed it. */
  acct: number;
  /** The invitation. */
  inv: number;
  site: number;
  firstName: string;
  lastName: string;
  nbf: number;
  exp: number;
  /** Unique per pass: a revoked pass is named by it, and the kiosk remembers the ones it used by it. */
  jti: string;
}

/** Why a pass is not honoured here, each said to the visitor in its own words. */
export const passProblems = [
  'notAPass',
  'forged',
  'otherAccount',
  'otherSite',
  'notYetValid',
  'expired',
  'cancelled',
  'usedHere',
] as const;
export type PassProblem = (typeof passProblems)[number];

export type PassVerdict = { ok: true; claims: PassClaims } | { ok: false; problem: PassProblem; claims?: PassClaims };

/** Three base64url parts: what a scanner or a person typed is meant as a pass (even a damaged one), not a name. */
export const looksLikePass = (text: string): boolean =>
  /^[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]*$/.test(text.trim());

/** The instants of a pass's validity as the invitation has them. */
export const passValidity = (claims: Pick<PassClaims, 'nbf' | 'exp'>) => ({
  validFrom: new Date(claims.nbf * 1000),
  validUntil: new Date(claims.exp * 1000),
});

/** Seconds since the epoch of an instant, as a pass writes its validity (rounded down, so never later than asked). */
export const passSeconds = (at: Date): number => Math.floor(at.getTime() / 1000);

/**
 * Whether a kiosk honours a pass whose signature it checked: of its account and its site, not revoked, valid
 * now, and not used on this kiosk before. The first problem found, in that order (a foreign pass is foreign
 * before it is anything else).
 */
export function judgePass(
  claims: PassClaims,
  here: { accountId: number; siteId: number; now: Date; revoked: ReadonlySet<string>; usedHere: boolean },
): PassVerdict {
  const refuse = (problem: PassProblem): PassVerdict => ({ ok: false, problem, claims });
  if (claims.acct !== here.accountId) return refuse('otherAccount');
  if (claims.site !== here.siteId) return refuse('otherSite');
  if (here.revoked.has(claims.jti)) return refuse('cancelled');
  const { validFrom, validUntil } = passValidity(claims);
  if (here.now < validFrom) return refuse('notYetValid');
  if (here.now >= validUntil) return refuse('expired');
  if (here.usedHere) return refuse('usedHere');
  return { ok: true, claims };
}

/** The state of the invitation a pass names, as the server reads it when a check-in carries the pass. */
export interface InvitationAtArrival {
  status: 'expected' | 'arrived' | 'cancelled';
  /** The jti of the invitation's current pass: another one was replaced by a change (and revoked). */
  passJti: string;
  validFrom: Date;
  validUntil: Date;
  /** When it was first used (its arrival), if it was. */
  arrivedAt: Date | null;
}

/**
 * What the server makes of a genuine pass of the site (docs/invitations.md, Single use): the first use within
 * its validity admits the visitor and marks the invitation arrived; any other use is held (`PENDING`) with
 * the reason said to reception, never turned away unseen and never a second silent welcome. `at` is when
 * the visitor showed it (the check-in's entry time, which an offline kiosk sends late).
 */
export function passAtArrival(
  invitation: InvitationAtArrival,
  jti: string,
  at: Date,
): { kind: 'admit' } | { kind: 'hold'; reason: 'used' | 'cancelled' | 'replaced' | 'notYetValid' | 'expired' } {
  if (invitation.status === 'arrived') return { kind: 'hold', reason: 'used' };
  if (invitation.status === 'cancelled') return { kind: 'hold', reason: 'cancelled' };
  if (invitation.passJti !== jti) return { kind: 'hold', reason: 'replaced' };
  if (at < invitation.validFrom) return { kind: 'hold', reason: 'notYetValid' };
  if (at >= invitation.validUntil) return { kind: 'hold', reason: 'expired' };
  return { kind: 'admit' };
}
