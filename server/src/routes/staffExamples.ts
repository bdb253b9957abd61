/** The staff resources the API reference shows as examples (checked against their schemas by the tests). */

const at = '2026-11-21T09:00:00.000Z';

export const staffUserExample = {
  userId: 3,
  email: 'rita@example.com',
  name: 'Rita Reception',
  role: 'reception',
  siteIds: [1],
  allSites: false,
  disabled: false,
  createdAt: at,
  lastSignInAt: '2026-11-21T08:00:00.000Z',
} as const;

export const userActorExample = { type: 'user', id: 3, name: 'Rita Reception' } as const;

export const linkCodeExample = 'q3V1bG9uZy1yYW5kb20tY29kZS1vZi00My1jaGFycy0';

export const alertExample = {
  kind: 'person',
  checkinId: 42,
  siteId: 1,
  at,
  subject: 'Ada Lovelace',
  reason: 'Trespass notice',
  source: 'watchlist',
  acknowledgedAt: null,
  acknowledgedBy: null,
} as const;

export const auditEventExample = {
  auditId: 7,
  at,
  actor: userActorExample,
  action: 'checkin.approved',
  target: { type: 'person_checkin', id: 42 },
  siteId: 1,
  requestId: '5f0c6a52-3b1e-4d7a-9a8e-1c2b3d4e5f60',
  detail: null,
} as const;
