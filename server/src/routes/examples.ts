/**
 * The resources the API reference shows as examples, one of each, so the routes' examples agree with one
 * another. The OpenAPI test checks every example against the schema of its route.
 */

const at = '2026-11-21T09:00:00.000Z';
const later = '2026-11-21T11:30:00.000Z';

export const siteExample = {
  siteId: 1,
  name: 'Head office',
  timezone: 'Europe/Berlin',
  archivedAt: null,
  badge: { enabled: true, size: '62x100' },
  defaultLanguage: 'de',
  visit: { code: 'K7QW3MZP9D', requiresApproval: false },
};

export const configExample = {
  siteId: 1,
  version: 4,
  requiresApproval: false,
  fields: [
    { name: 'firstName', label: 'First name', type: 'text', required: true },
    { name: 'lastName', label: 'Last name', type: 'text', required: true },
    { name: 'email', label: 'Email', type: 'email', required: false },
    { name: 'badgeNumber', label: 'Badge number', type: 'text', required: false },
  ],
} as const;

export const personCheckinExample = {
  checkinId: 42,
  siteId: 1,
  status: 'IN',
  person: { firstName: 'Ada', lastName: 'Lovelace', email: 'ada@example.com', phone: null, company: 'ACME' },
  hostName: 'Grace',
  hostId: null,
  purpose: 'Meeting',
  customFields: { badgeNumber: '17' },
  labelIds: [3],
  entry: { source: 'KIOSK', at },
  exit: null,
  denyReason: null,
  pendingReason: null,
  invitationId: null,
  badgeCode: 'q3Zr8LwT0bXy4KcN',
  language: 'de',
  breaks: [],
  decidedBy: null,
  decidedAt: null,
  createdAt: at,
  updatedAt: at,
} as const;

export const personCheckedOutExample = {
  ...personCheckinExample,
  status: 'OUT',
  exit: { source: 'KIOSK', at: later },
  breaks: [{ breakId: 7, startedAt: '2026-11-21T10:00:00.000Z', endedAt: '2026-11-21T10:15:00.000Z' }],
  updatedAt: later,
} as const;

export const personLabelExample = { labelId: 3, name: 'Contractor', color: '#1a2b3c', createdAt: at, updatedAt: at };

export const watchlistEntryExample = {
  entryId: 5,
  email: 'mallory@example.com',
  phone: null,
  firstName: null,
  lastName: null,
  reason: 'Banned after an incident',
  createdAt: at,
};

export const vehicleExample = {
  vehicleId: 12,
  licensePlate: 'B-GH 1234',
  make: 'Volkswagen',
  model: 'Caddy',
  color: 'white',
  description: 'Maintenance van',
  labelIds: [4],
  createdAt: at,
  updatedAt: at,
};

export const vehicleLabelExample = {
  labelId: 4,
  name: 'Fleet',
  color: '#00aa55',
  blocksEntry: false,
  createdAt: at,
  updatedAt: at,
};

export const vehicleCheckinExample = {
  checkinId: 77,
  siteId: 1,
  vehicleId: 12,
  licensePlate: 'B-GH 1234',
  status: 'IN',
  driverName: 'Grace Hopper',
  notes: null,
  entry: { source: 'KIOSK', at },
  exit: null,
  denyReason: null,
  stopReason: null,
  decidedBy: null,
  decidedAt: null,
  createdAt: at,
  updatedAt: at,
} as const;

export const subscriptionExample = {
  subscriptionId: 9,
  url: 'https://hooks.example.com/gatehouse',
  events: ['VEHICLE_CHECKIN_ENTERED', 'VEHICLE_CHECKIN_EXITED'],
  siteIds: [1],
  description: 'Gate log',
  enabled: true,
  disabledReason: null,
  createdAt: at,
  updatedAt: at,
};

export const deliveryExample = {
  deliveryId: 301,
  eventId: 'evt_2f1c0d7e9a',
  eventType: 'VEHICLE_CHECKIN_ENTERED',
  status: 'delivered',
  attempts: [{ at, statusCode: 200, error: null, durationMs: 84 }],
  nextAttemptAt: null,
  createdAt: at,
};

export const tokenExample = {
  tokenId: 2,
  accountId: 1,
  name: 'Lobby kiosk',
  siteIds: [1],
  allSites: false,
  scopes: ['kiosk:visitor'],
  channel: 'KIOSK',
  expiresAt: null,
  lastUsedAt: null,
  createdAt: at,
};

/** A list page as every list answers it. */
export const pageOf = <T>(item: T) => ({ data: [item], nextCursor: null });
