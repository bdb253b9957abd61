import type { StreamEvent } from './frames';

/** One open stream as the instance's reader sees it: whose, which sites, and where to hand events. */
export interface Subscriber {
  readonly accountId: number;
  /** The sites it may see; null: every site of the account, now and future. */
  readonly siteIds: ReadonlySet<number> | null;
  /** Called in position order with every event of its account for its sites (it checks scopes itself). */
  deliver: (event: StreamEvent) => void;
  /** Ends the stream (the instance is shutting down). */
  close: () => void;
}

interface AccountSubscribers {
  /** Every subscriber of the account: events about the whole account go to all. */
  everyone: Set<Subscriber>;
  allSites: Set<Subscriber>;
  bySite: Map<number, Set<Subscriber>>;
}

/**
 * The open streams by account and site, so an event costs the streams that may see it, not every stream of
 * the instance (one account may have thousands of sites, each with its own kiosks and consoles).
 */
export class Subscribers {
  private readonly accounts = new Map<number, AccountSubscribers>();
  private total = 0;

  get size(): number {
    return this.total;
  }

  add(subscriber: Subscriber): void {
    let account = this.accounts.get(subscriber.accountId);
    if (!account) {
      account = { everyone: new Set(), allSites: new Set(), bySite: new Map() };
      this.accounts.set(subscriber.accountId, account);
    }
    if (account.everyone.has(subscriber)) return;
    account.everyone.add(subscriber);
    this.total += 1;
    if (subscriber.siteIds === null) {
      account.allSites.add(subscriber);
      return;
    }
    for (const siteId of subscriber.siteIds) {
      let site = account.bySite.get(siteId);
      if (!site) {
        site = new Set();
        account.bySite.set(siteId, site);
      }
      site.add(subscriber);
    }
  }

  /** Takes it out of every set it is in (call before its `siteIds` change, then `add` it again); false if it was in none. */
  remove(subscriber: Subscriber): boolean {
    const account = this.accounts.get(subscriber.accountId);
    if (!account?.everyone.delete(subscriber)) return false;
    this.total -= 1;
    account.allSites.delete(subscriber);
    for (const siteId of subscriber.siteIds ?? []) {
      const site = account.bySite.get(siteId);
      site?.delete(subscriber);
      if (site?.size === 0) account.bySite.delete(siteId);
    }
    if (account.everyone.size === 0) this.accounts.delete(subscriber.accountId);
    return true;
  }

  /** Hands the event to each subscriber of its account that has its site (or every site). */
  dispatch(event: StreamEvent): void {
    const account = this.accounts.get(event.accountId);
    if (!account) return;
    if (event.siteId === null) {
      for (const subscriber of account.everyone) subscriber.deliver(event);
      return;
    }
    for (const subscriber of account.allSites) subscriber.deliver(event);
    for (const subscriber of account.bySite.get(event.siteId) ?? []) subscriber.deliver(event);
  }

  /** Whether any subscriber is of this account (else its events need not even be made into frames). */
  follows(accountId: number): boolean {
    return this.accounts.has(accountId);
  }

  all(): Subscriber[] {
    return [...this.accounts.values()].flatMap((account) => [...account.everyone]);
  }
}
