import type { PersonCheckin } from '../../../shared/src/schemas/personCheckins';
import type { PersonCheckinRow } from '../queries/personCheckinRows';
import { presentEntry, presentExit } from './visit';

/** The API shape of a check-in, field by field (a row is never serialized as it is). */
export function presentPersonCheckin(row: PersonCheckinRow): PersonCheckin {
  const checkin: PersonCheckin = {
    checkinId: row.id,
    siteId: row.site_id,
    status: row.status,
    person: {
      firstName: row.first_name,
      lastName: row.last_name,
      email: row.email,
      phone: row.phone,
      company: row.company,
    },
    hostName: row.host_name,
    hostId: row.host_id,
    purpose: row.purpose,
    customFields: row.custom_fields,
    labelIds: row.label_ids,
    // Field by field: no object spread in this literal (V8 makes it slow, see arrivingVisit).
    entry: presentEntry(row),
    exit: presentExit(row),
    denyReason: row.deny_reason,
    invitationId: row.invitation_id,
    pendingReason: row.pending_reason,
    badgeCode: row.badge_code,
    language: row.language,
    breaks: row.breaks.map((item) => ({
      breakId: item.id,
      startedAt: item.startedAt.toISOString(),
      endedAt: item.endedAt ? item.endedAt.toISOString() : null,
    })),
    decidedBy: row.decided_by,
    decidedAt: row.decided_at ? row.decided_at.toISOString() : null,
    createdAt: row.created_at.toISOString(),
    updatedAt: row.updated_at.toISOString(),
  };
  // Only on a check-in accepted on an older form (docs/api.md, Form versions): every other answer is as before.
  if (row.incomplete_fields && row.incomplete_fields.length > 0) checkin.incompleteFields = row.incomplete_fields;
  return checkin;
}
