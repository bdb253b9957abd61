import { type Sql, sql } from '../db/sql';

/**
 * What each account and each subscription may still have in flight in one dispatcher: every account gets a
 * share of the attempts it runs, every subscription a share of its account's, so a slow or dead receiver
 * holds up only its own subscription's queue, and a busy tenant only its own (docs/webhooks.md).
 */
export interface DeliveryShares {
  perAccount: number;
  /** An account's share while no other account has a delivery due: all but a quarter, kept for newcomers. */
  perAccountAlone: number;
  perSubscription: number;
  /** Attempts in flight now, by account and by `${accountId}:${subscriptionId}`. */
  accounts: ReadonlyMap<number, number>;
  subscriptions: ReadonlyMap<string, number>;
}

/**
 * The shares of a dispatcher running `concurrency` attempts at once (128 by default): half per account (64),
 * so a busy tenant leaves the other half to the rest, or all but a quarter (96) while it alone has work due.
 * A subscription gets three quarters of that quarter (24): less than what is kept for newcomers, so one
 * slow receiver cannot take it all, and more than the sender's 16 connections to one receiver, so its next
 * attempts wait in the sender, ready the moment a connection frees, not a database round away.
 */
export function sharesFor(
  concurrency: number,
): Pick<DeliveryShares, 'perAccount' | 'perAccountAlone' | 'perSubscription'> {
  const kept = Math.max(1, Math.floor(concurrency / 4));
  return {
    perAccount: Math.max(1, Math.floor(concurrency / 2)),
    perAccountAlone: Math.max(1, concurrency - kept),
    perSubscription: Math.max(1, Math.floor((kept * 3) / 4)),
  };
}

/** Counts attempts in flight by account and subscription, for DeliveryShares. */
export class InFlightShares {
  readonly accounts = new Map<number, number>();
  readonly subscriptions = new Map<string, number>();

  add(accountId: number, subscriptionId: number, step: 1 | -1): void {
    const key = `${accountId}:${subscriptionId}`;
    const account = (this.accounts.get(accountId) ?? 0) + step;
    const subscription = (this.subscriptions.get(key) ?? 0) + step;
    if (account > 0) this.accounts.set(accountId, account);
    else this.accounts.delete(accountId);
    if (subscription > 0) this.subscriptions.set(key, subscription);
    else this.subscriptions.delete(key);
  }
}

/**
 * Two CTEs, `busy_accounts (account_id, n)` and `busy_subscriptions (account_id, subscription_id, n)`: the
 * attempts in flight in this dispatcher, which its shares leave room for.
 */
export function busyShares(shares: DeliveryShares): Sql {
  const subscriptions = [...shares.subscriptions].map(([key, n]) => {
    const [accountId, subscriptionId] = key.split(':').map(Number) as [number, number];
    return { accountId, subscriptionId, n };
  });
  return sql`busy_accounts AS (
      SELECT * FROM unnest(${[...shares.accounts.keys()]}::int[], ${[...shares.accounts.values()]}::int[]) AS b(account_id, n)),
    busy_subscriptions AS (
      SELECT * FROM unnest(${subscriptions.map((item) => item.accountId)}::int[], ${subscriptions.map((item) => item.subscriptionId)}::int[],
        ${subscriptions.map((item) => item.n)}::int[]) AS b(account_id, subscription_id, n))`;
}
