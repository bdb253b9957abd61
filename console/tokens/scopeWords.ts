import type { Scope } from '../../shared/src/schemas/admin';

/** What each scope lets a token do, beside its name (docs/api.md, Scopes). */
export const scopeWords: Record<Scope, string> = {
  'checkins:read': 'Read check-ins',
  'checkins:write': 'Check people in and out',
  'checkins:approve': 'Approve and deny check-ins',
  'vehicles:read': 'Read vehicles',
  'vehicles:write': 'Check vehicles in and out, edit vehicles',
  'labels:write': 'Edit vehicle labels',
  'sites:configure': 'Change sites and their forms',
  'webhooks:manage': 'Manage webhooks',
  'watchlist:manage': 'Manage the watchlist',
  'alerts:manage': 'Read and acknowledge alerts',
  'users:manage': 'Manage staff',
  'audit:read': 'Read the audit log',
  'exports:read': 'Export history',
  'kiosks:manage': 'Manage kiosks',
  'tokens:manage': 'Manage API tokens',
  'privacy:manage': 'Retention and erasure',
  'hosts:manage': 'Manage hosts',
  'invitations:read': 'See invitations',
  'invitations:write': 'Invite visitors (their passes admit them)',
  'kiosk:visitor': 'A visitor kiosk: check people in and out at its site',
  'kiosk:gate': 'A gate kiosk: let vehicles in and out at its site',
};
