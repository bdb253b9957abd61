import { createHash } from 'node:crypto';
import net from 'node:net';
import { ipv6Groups } from '../net/ipv6Groups';
import type { RateDecision } from './limiter';

const WINDOW_MS = 60_000;
/** How long a token seen valid here skips the address budget (its access is still resolved every time). */
const VOUCHED_FOR_MS = 10 * 60_000;
/** Bounds the memory of tokens seen valid; the oldest goes first. */
const MAX_VOUCHED = 10_000;

/**
 * Who a client address counts as: an IPv4 address (IPv4-mapped IPv6 too) itself, an IPv6 address by its /64,
 * which one subscriber holds whole (one budget per address of it would be no budget at all).
 */
export function clientKey(address: string): string {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped?.[1]) return mapped[1];
  if (net.isIPv6(address))
    return `${ipv6Groups(address.split('%')[0] ?? address)
      .slice(0, 4)
      .map((group) => group.toString(16))
      .join(':')}::/64`;
  return address;
}

const fingerprint = (token: string) => createHash('sha256').update(token).digest('base64url');

/**
 * The budget of requests without a valid token (and of the management API), per client address and fixed
 * one-minute window, counted in this process only (so per instance: docs/operations.md). It sits in front of
 * the token lookup, so a flood of forged tokens past the budget costs no database work. A token this process
 * has seen valid lately does not spend it: it has a budget of its own.
 */
export class AddressLimiter {
  private windowStart = 0;
  private readonly counts = new Map<string, number>();
  private readonly vouched = new Map<string, number>();

  constructor(readonly limit: number) {}

  /** Counts one request from `address` at `now` and says whether it may proceed. */
  consume(address: string, now: Date): RateDecision {
    const windowStart = Math.floor(now.getTime() / WINDOW_MS) * WINDOW_MS;
    // A new window: every count of the last one goes at once (the map holds one window's addresses at most).
    if (windowStart !== this.windowStart) {
      this.windowStart = windowStart;
      this.counts.clear();
    }
    const resetSeconds = Math.max(1, Math.ceil((windowStart + WINDOW_MS - now.getTime()) / 1000));
    const used = this.counts.get(address) ?? 0;
    if (used >= this.limit) return { allowed: false, limit: this.limit, remaining: 0, resetSeconds };
    this.counts.set(address, used + 1);
    return { allowed: true, limit: this.limit, remaining: this.limit - used - 1, resetSeconds };
  }

  /** Gives back a request counted by `consume` that turned out to carry a valid token. */
  refund(address: string, now: Date): void {
    if (Math.floor(now.getTime() / WINDOW_MS) * WINDOW_MS !== this.windowStart) return;
    const used = this.counts.get(address) ?? 0;
    if (used > 0) this.counts.set(address, used - 1);
  }

  /** Whether `token` was found valid here within VOUCHED_FOR_MS. */
  isVouched(token: string, now: Date): boolean {
    const until = this.vouched.get(fingerprint(token));
    return until !== undefined && until > now.getTime();
  }

  vouch(token: string, now: Date): void {
    const key = fingerprint(token);
    this.vouched.delete(key);
    this.vouched.set(key, now.getTime() + VOUCHED_FOR_MS);
    if (this.vouched.size > MAX_VOUCHED) {
      const oldest = this.vouched.keys().next();
      if (!oldest.done) this.vouched.delete(oldest.value);
    }
  }

  /** A vouched token that has since been refused (revoked, expired) spends the address budget again. */
  forget(token: string): void {
    this.vouched.delete(fingerprint(token));
  }
}
