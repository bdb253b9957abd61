import type { Kiosk } from '../../../shared/src/schemas/kiosks';
import type { KioskRow } from '../queries/kioskRows';

export const presentKiosk = (row: KioskRow): Kiosk => ({
  kioskId: row.id,
  siteId: row.site_id,
  mode: row.mode,
  name: row.name,
  tokenId: row.token_id,
  createdAt: row.created_at.toISOString(),
  pairedAt: row.paired_at?.toISOString() ?? null,
  lastSeenAt: row.last_seen_at?.toISOString() ?? null,
  pending: row.pending,
  attention: row.attention,
  appVersion: row.app_version,
});
