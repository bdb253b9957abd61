import type { Principal } from '../auth/principal';
import { ProblemError } from '../errors/problem';

/**
 * Account-wide work (adding a site, managing API tokens) belongs to a caller with every site of the account:
 * an owner, or an all-sites token. Anyone else, whatever its scopes, gets 403.
 */
export function requireEverySite(principal: Principal, doing: string): void {
  if (!principal.allSites) {
    throw new ProblemError(
      'INSUFFICIENT_SCOPE',
      `${doing} needs access to all sites of the account (an owner, or an all-sites token).`,
    );
  }
}
