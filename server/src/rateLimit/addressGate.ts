import { ProblemError, problem } from '../errors/problem';
import type { AddressLimiter } from './addressLimiter';
import type { RateDecision } from './limiter';

function refuseIfSpent(decision: RateDecision): void {
  if (decision.allowed) return;
  throw problem(
    'RATE_LIMITED',
    `This address may make ${decision.limit} requests a minute without a valid token; retry in ${decision.resetSeconds} s.`,
    { headers: { 'Retry-After': String(decision.resetSeconds) } },
  );
}

/** A management API request: each one spends the address budget, whatever its token. */
export function spendAddressBudget(limiter: AddressLimiter, address: string, now: Date): void {
  refuseIfSpent(limiter.consume(address, now));
}

/**
 * Runs a token lookup under the address budget: spent before the lookup (so past the budget there is none),
 * given back when the token proves valid, kept when it is refused (401). A token seen valid lately skips
 * the budget, so a flood from its address does not lock it out.
 */
export async function withinAddressBudget<T>(
  limiter: AddressLimiter,
  input: { address: string; bearer: string | undefined; now: Date },
  lookup: () => Promise<T>,
): Promise<T> {
  const { address, bearer, now } = input;
  const vouched = bearer !== undefined && limiter.isVouched(bearer, now);
  if (!vouched) refuseIfSpent(limiter.consume(address, now));
  let result: T;
  try {
    result = await lookup();
  } catch (error) {
    const refused = error instanceof ProblemError && error.code === 'UNAUTHENTICATED';
    if (refused && vouched && bearer !== undefined) limiter.forget(bearer);
    // Not the caller's doing (the database is down, say): the request does not count.
    if (!refused && !vouched) limiter.refund(address, now);
    throw error;
  }
  if (!vouched) {
    limiter.refund(address, now);
    if (bearer !== undefined) limiter.vouch(bearer, now);
  }
  return result;
}
