import { ZxcvbnFactory } from '@zxcvbn-ts/core';
import * as common from '@zxcvbn-ts/language-common';
import * as english from '@zxcvbn-ts/language-en';

/** Who the password is for: it must not be, or lean on, any of these (docs/api.md, Passwords). */
export interface PasswordOwner {
  email: string | null;
  name: string | null;
  accountName: string | null;
}

/**
 * zxcvbn's lowest score that is accepted: 3, "safely unguessable" (about 10^8 guesses and up) against an
 * attacker who holds a slow hash: breached and common passwords, keyboard walks, repeats, sequences, dates
 * and names score lower.
 */
const MIN_SCORE = 3;

// Built on first use: its dictionaries (breached passwords, names, English words) take a moment to index.
// Levenshtein matching stays off: it costs seconds on long passwords for little gain over exact and l33t.
let estimator: ZxcvbnFactory | undefined;
function strengthEstimator(): ZxcvbnFactory {
  estimator ??= new ZxcvbnFactory({
    dictionary: { ...common.dictionary, ...english.dictionary },
    graphs: common.adjacencyGraphs,
    translations: english.translations,
  });
  return estimator;
}

/** Lower case, white space folded: how a password is compared with the owner's email, name and account. */
const folded = (text: string) => text.normalize('NFKC').toLowerCase().replace(/\s+/g, ' ').trim();

/**
 * Why `password` may not be used, in plain words for the person choosing it, or undefined when it may.
 * Length (12 to 256) is the schema's; this is the rest: not white space only, not the owner's email, name
 * or account name, and strong by zxcvbn's estimate knowing those too.
 */
export function passwordWeakness(password: string, owner: PasswordOwner): string | undefined {
  if (password.trim() === '') return 'A password cannot be only spaces. Use words or characters you can type.';
  const personal = [owner.email, owner.email?.split('@')[0] ?? null, owner.name, owner.accountName].filter(
    (text): text is string => text !== null && text.trim() !== '',
  );
  if (personal.some((text) => folded(text) === folded(password)))
    return 'Do not use your email, your name or the account’s name as your password.';
  const result = strengthEstimator().check(password, personal);
  if (result.score >= MIN_SCORE) return undefined;
  const why = result.feedback.warning ?? 'This password is too easy to guess.';
  const hint = result.feedback.suggestions[0] ?? 'Add more words that are less common.';
  return `${why} ${hint}`;
}
