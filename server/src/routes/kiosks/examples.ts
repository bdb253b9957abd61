/** A kiosk as the API answers it, for the reference's examples. */
export const kioskExample = {
  kioskId: 4,
  siteId: 1,
  mode: 'visitor',
  name: 'Lobby kiosk',
  tokenId: 2,
  createdAt: '2026-11-26T08:00:00.000Z',
  pairedAt: '2026-11-26T08:03:10.000Z',
  lastSeenAt: '2026-11-26T09:41:00.000Z',
  pending: 0,
  attention: 1,
  appVersion: '1.4.0',
};

export const pairingExample = { pairingCode: 'K7M2QX9D', pairingExpiresAt: '2026-11-26T08:15:00.000Z' };
