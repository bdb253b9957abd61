import type { ScannedPass } from '../../src/data/passes';
import { dayAndTime } from '../words';

type Refusal = Extract<ScannedPass, { ok: false }>;

/**
 * Why a pass is not honoured here, said to the visitor in words (CONTRACT §21): which of expired,
 * cancelled, another organisation's or site's, or not genuine. Nothing that sounds like an accusation:
 * reception can still check what happened; the normal check-in is offered beside it.
 */
export function passRefusalWords(refusal: Refusal): string {
  const claims = 'claims' in refusal ? refusal.claims : undefined;
  switch (refusal.problem) {
    case 'noKeys':
      return 'This kiosk cannot check passes yet: it has not reached the server since it was set up.';
    case 'notAPass':
      return 'This code is not a visitor pass.';
    case 'forged':
      return 'This pass is not genuine: it was changed or not issued by us.';
    case 'otherAccount':
      return 'This pass is for another organisation, not this one.';
    case 'otherSite':
      return 'This pass is for another site, not this one.';
    case 'notYetValid':
      return claims
        ? `This pass is not valid yet: it is valid from ${dayAndTime(new Date(claims.nbf * 1000).toISOString())}.`
        : 'This pass is not valid yet.';
    case 'expired':
      return claims
        ? `This pass has expired: it was valid until ${dayAndTime(new Date(claims.exp * 1000).toISOString())}.`
        : 'This pass has expired.';
    case 'cancelled':
      return 'This pass was cancelled.';
    case 'usedHere':
      return 'This pass was already used on this kiosk.';
  }
}
