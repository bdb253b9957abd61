import type { Channel } from '../../../shared/src/schemas/common';
import type { CheckinConfigUpdate } from '../../../shared/src/schemas/sites';
import type { Scope } from '../../../shared/src/schemas/admin';

/** Who is calling: one token of one account. */
export interface Principal {
  tokenId: number;
  accountId: number;
  scopes: ReadonlySet<Scope>;
  channel: Channel;
  allSites: boolean;
}

/** A site the token may view, with what site-scoped routes need of it (read in the same query as the token). */
export interface SiteAccess {
  siteId: number;
  name: string;
  timezone: string;
  checkinConfig: CheckinConfigUpdate;
  configVersion: number;
}
