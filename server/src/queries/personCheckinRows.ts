import type { PersonStatus } from '../../../shared/src/domain/personCheckin';
import type { Language } from '../../../shared/src/messages/languages';
import { type Executor, queryRows } from '../db/query';
import { type Sql, raw, sql } from '../db/sql';
import type { VisitRow } from './visitRows';

export interface BreakRow {
  id: number;
  startedAt: Date;
  endedAt: Date | null;
}

/** A person check-in as stored, with its breaks oldest first. */
export interface PersonCheckinRow extends VisitRow {
  status: PersonStatus;
  first_name: string;
  last_name: string;
  email: string | null;
  phone: string | null;
  company: string | null;
  host_name: string | null;
  /** The host of the visit (docs/notifications.md); a deleted host's id stays. */
  host_id: number | null;
  purpose: string | null;
  custom_fields: Record<string, string | boolean>;
  label_ids: number[];
  /** Why a STOP stops (the watchlist entry's reason, or the deny's): for staff, never in the public resource. */
  stop_reason: string | null;
  /** The random secret of the visit's badge QR code (null on visits that ended before badges existed). */
  badge_code: string | null;
  /** The current form's fields a check-in accepted on an older form did not meet; null otherwise. */
  incomplete_fields: string[] | null;
  /** The invitation of the pass the visitor came with (docs/invitations.md); null without one. */
  invitation_id: number | null;
  /** Why it waits when a pass did not admit it ("Pass already used at 09:12"); null otherwise. */
  pending_reason: string | null;
  /** The language the visitor read the form in (a kiosk sends it); null when the create named none. */
  language: Language | null;
  breaks: BreakRow[];
}

/** A row as read, plus the exact (microsecond) entry time that cursors are made of. */
export type ListedCheckinRow = PersonCheckinRow & { entry_us: number };

type RawRow = Omit<ListedCheckinRow, 'breaks'> & {
  breaks: Array<{ id: number; startedAt: string; endedAt: string | null }>;
};

/** The columns every read uses: breaks come along in the same statement (no N+1). */
export const CHECKIN_COLUMNS = raw(`
         c.account_id, c.id, c.site_id, c.status, c.first_name, c.last_name, c.email, c.phone, c.company,
         c.host_name, c.host_id, c.purpose, c.custom_fields, c.label_ids, c.entry_source, c.entry_at, c.exit_source, c.exit_at,
         c.last_event_at, c.deny_reason, c.decided_by, c.decided_at, c.stop_reason, c.stop_source, c.stopped_at,
         c.badge_code, c.incomplete_fields, c.invitation_id, c.pending_reason, c.language, c.created_at, c.updated_at,
         (extract(epoch FROM c.entry_at) * 1000000)::bigint AS entry_us,
         COALESCE((SELECT json_agg(json_build_object('id', b.id, 'startedAt', b.started_at, 'endedAt', b.ended_at)
                                   ORDER BY b.started_at, b.id)
                   FROM person_breaks b WHERE b.account_id = c.account_id AND b.checkin_id = c.id), '[]') AS breaks`);

export const CHECKIN_SELECT = sql`SELECT ${CHECKIN_COLUMNS} FROM person_checkins c`;

function fromRaw(raw: RawRow): ListedCheckinRow {
  return {
    ...raw,
    breaks: raw.breaks.map((item) => ({
      id: item.id,
      startedAt: new Date(item.startedAt),
      endedAt: item.endedAt === null ? null : new Date(item.endedAt),
    })),
  };
}

/** Runs a statement built on CHECKIN_SELECT. */
export async function selectCheckins(
  db: Executor,
  statement: Sql,
  options: { prepare?: boolean } = {},
): Promise<ListedCheckinRow[]> {
  return (await queryRows<RawRow>(db, statement, options)).map(fromRaw);
}

export interface CheckinKey {
  accountId: number;
  siteId: number;
  checkinId: number;
}

/** One check-in of one site, or undefined. */
export async function findCheckin(db: Executor, key: CheckinKey): Promise<ListedCheckinRow | undefined> {
  const rows = await selectCheckins(
    db,
    sql`${CHECKIN_SELECT} WHERE c.account_id = ${key.accountId} AND c.site_id = ${key.siteId} AND c.id = ${key.checkinId}`,
    { prepare: true },
  );
  return rows[0];
}

/**
 * The check-in as a transition starts from: its row version (`xmin`, which every update changes), so the
 * write can apply only to the very version read, and a break id drawn ahead of time, so the response and
 * the outbox event can be built before the single write statement.
 */
export async function readCheckinForChange(
  db: Executor,
  key: CheckinKey,
): Promise<{ row: ListedCheckinRow; version: string; nextBreakId: number } | undefined> {
  const rows = await queryRows<RawRow & { version: string; next_break_id: number }>(
    db,
    sql`SELECT ${CHECKIN_COLUMNS}, c.xmin::text AS version, nextval(pg_get_serial_sequence('person_breaks', 'id')) AS next_break_id
        FROM person_checkins c WHERE c.account_id = ${key.accountId} AND c.site_id = ${key.siteId} AND c.id = ${key.checkinId}`,
    { prepare: true },
  );
  const raw = rows[0];
  if (!raw) return undefined;
  const { version, next_break_id: nextBreakId, ...rest } = raw;
  return { row: fromRaw(rest), version, nextBreakId };
}
