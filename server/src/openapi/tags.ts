/**
 * The groups of the API reference, in reading order, each with what it is for. A route's `tag` must be
 * one of these (the document refuses to build otherwise), so a new group comes with its description.
 */
export const tags: ReadonlyArray<{ name: string; description: string }> = [
  {
    name: 'Sites',
    description: 'The sites a token can view, and the check-in form each site asks visitors to fill in.',
  },
  {
    name: 'Person check-ins',
    description:
      'Visitors on site: check-in, approval, breaks, checkout, lists and search. Status moves IN ⇄ ON_BREAK → OUT; PENDING waits for approval; STOP is refused (watchlist or denial).',
  },
  { name: 'Person labels', description: 'Labels to tag person check-ins with (a table apart from vehicle labels).' },
  {
    name: 'Watchlist',
    description: 'People who are stopped at check-in: a create that matches an entry gets status STOP.',
  },
  {
    name: 'Kiosk',
    description:
      'What a kiosk keeps offline (the watchlist digest of its account), its pairing by code and its heartbeat.',
  },
  {
    name: 'Kiosks',
    description: "The account's kiosks: add one with a one-time pairing code, see when each was last seen, revoke.",
  },
  {
    name: 'API tokens',
    description: "The account's tokens: list, create with at most the caller's scopes and sites, revoke (owners).",
  },
  {
    name: 'Vehicles',
    description: 'Registered vehicles of the account, and the change feed kiosks keep a local copy from.',
  },
  {
    name: 'Vehicle labels',
    description: 'Labels for vehicles; a label with blocksEntry stops its vehicles at the gate.',
  },
  {
    name: 'Vehicle check-ins',
    description: 'Vehicle visits at a gate: entry by registered vehicle or plate, approval, checkout, search.',
  },
  {
    name: 'Webhooks',
    description:
      'Subscriptions to check-in events, signed per the Standard Webhooks specification, and their delivery log.',
  },
  {
    name: 'Session',
    description:
      'Staff sign-in with a session cookie (gh_session), password change, and the one-time setup, invitation and reset links.',
  },
  { name: 'Staff users', description: 'The staff of the account, their roles and sites (owners).' },
  {
    name: 'Alerts',
    description: "Every STOP of the last 24 hours on the caller's sites, with its reason, for staff to acknowledge.",
  },
  {
    name: 'Hosts',
    description:
      'The people visitors come to see: the host directory, its CSV import, and the list of names a kiosk offers.',
  },
  {
    name: 'Notifications',
    description:
      'What hosts were told about their visitors (email, chat), and the one-time Approve and Deny links of a waiting visitor.',
  },
  {
    name: 'Invitations',
    description:
      'Expected visitors and their passes: a QR code the visitor shows at a kiosk, signed with the account’s Ed25519 key, verified offline and honoured once.',
  },
  {
    name: 'Visitor phone',
    description:
      "A visitor's own phone (the QR_CODE channel): the page a site's visit code opens, a check-in with no token, and that visit's breaks and checkout by the key the phone made.",
  },
  { name: 'Audit log', description: 'Who changed what: every write by a staff user or a token, newest first.' },
  {
    name: 'Events',
    description:
      'The changes of your sites as they happen (server-sent events), for consoles and kiosks to follow instead of polling.',
  },
  {
    name: 'Exports',
    description: 'Check-ins of a range of days as CSV for spreadsheet programs, streamed however many rows there are.',
  },
  {
    name: 'Privacy',
    description: "How long visitors' personal data is kept, and erasing a person's check-ins on request (owners).",
  },
  {
    name: 'Management (ADMIN_TOKEN)',
    description: 'Accounts, sites and tokens, for the operator of the deployment (only when ADMIN_TOKEN is set).',
  },
  { name: 'Documents', description: 'This document.' },
];
