import { type ScopeNeed, scopeNeedText } from '../../../shared/src/schemas/admin';

/** A route's scope for the reference: `` `checkins:write` `` or `` `checkins:write` or `kiosk:visitor` ``. */
export const scopeNeedWords = (need: ScopeNeed): string =>
  scopeNeedText(need)
    .split(' or ')
    .map((scope) => `\`${scope}\``)
    .join(' or ');
