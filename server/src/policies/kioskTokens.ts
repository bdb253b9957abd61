import { type Scope, defaultScopes, isKioskScope, kioskModeScopes } from '../../../shared/src/schemas/admin';
import type { Channel } from '../../../shared/src/schemas/common';
import type { KioskMode } from '../../../shared/src/schemas/kiosks';
import { validationFailed } from '../errors/problem';

/** A token as it is about to be stored: its channel, mode, scopes and sites. */
export interface TokenShape {
  channel: Channel;
  mode?: KioskMode;
  scopes?: Scope[];
  siteIds: number[];
  allSites: boolean;
}

/**
 * The scopes a token gets, or 422 naming what breaks the kiosk rule (docs/api.md, Scopes): a `KIOSK`
 * token has its mode's one scope and exactly one site; an `API` token has no mode and no kiosk scope.
 */
export function tokenScopes(token: TokenShape): Scope[] {
  const errors: Array<{ path: string; message: string }> = [];
  if (token.channel === 'KIOSK') {
    if (token.mode === undefined) errors.push({ path: 'mode', message: 'A KIOSK token needs a mode: visitor or gate' });
    const own: readonly Scope[] = token.mode === undefined ? [] : kioskModeScopes[token.mode];
    if (token.scopes !== undefined && !sameScopes(token.scopes, own))
      errors.push({ path: 'scopes', message: "A KIOSK token's scopes are its mode's: leave scopes out" });
    if (token.allSites || token.siteIds.length !== 1)
      errors.push({ path: 'siteIds', message: 'A KIOSK token is for exactly one site' });
    if (errors.length > 0) throw validationFailed(errors);
    return [...own];
  }
  if (token.mode !== undefined) errors.push({ path: 'mode', message: 'Only a KIOSK token has a mode' });
  const kiosk = (token.scopes ?? []).filter(isKioskScope);
  if (kiosk.length > 0) errors.push({ path: 'scopes', message: `Only a KIOSK token has ${kiosk.join(', ')}` });
  if (errors.length > 0) throw validationFailed(errors);
  return token.scopes ?? defaultScopes;
}

const sameScopes = (a: readonly Scope[], b: readonly Scope[]) =>
  new Set(a).size === new Set(b).size && a.every((scope) => b.includes(scope));
