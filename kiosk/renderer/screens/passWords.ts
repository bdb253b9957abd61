import { dateAndTime } from '../../../shared/src/messages/times';
import type { ScannedPass } from '../../src/data/passes';
import type { KioskWords } from '../language/VisitorLanguage';

type Refusal = Extract<ScannedPass, { ok: false }>;

/** A pass's time as the visitor's language writes it: "24 Nov, 09:41". */
const passTime = (words: KioskWords, seconds: number) => dateAndTime(words.locale, seconds * 1000);

/**
 * Why a pass is not honoured here, said to the visitor in words in their language (docs/invitations.md,
 * Verifying a pass): which of expired, cancelled, another organisation's or site's, or not genuine. Nothing
 * that sounds like an accusation: reception can still check what happened; the normal check-in is offered
 * beside it.
 */
export function passRefusalWords(words: KioskWords, refusal: Refusal): string {
  const claims = 'claims' in refusal ? refusal.claims : undefined;
  switch (refusal.problem) {
    case 'noKeys':
      return words.t('pass.noKeys');
    case 'notAPass':
      return words.t('pass.notAPass');
    case 'forged':
      return words.t('pass.forged');
    case 'otherAccount':
      return words.t('pass.otherAccount');
    case 'otherSite':
      return words.t('pass.otherSite');
    case 'notYetValid':
      return claims
        ? words.t('pass.notYetValidFrom', { time: passTime(words, claims.nbf) })
        : words.t('pass.notYetValid');
    case 'expired':
      return claims ? words.t('pass.expiredUntil', { time: passTime(words, claims.exp) }) : words.t('pass.expired');
    case 'cancelled':
      return words.t('pass.cancelled');
    case 'usedHere':
      return words.t('pass.usedHere');
  }
}
