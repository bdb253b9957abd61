import type { Alert, AlertKind, AlertSource } from '../../../shared/src/schemas/alerts';
import type { Actor } from '../../../shared/src/schemas/staff';
import { type Executor, queryOne, queryRows } from '../db/query';
import { type Sql, empty, sql } from '../db/sql';
import { afterCursorSql, decodeCursor, filterScope, toPage } from './cursor';

/** Alerts are the STOPs, older-form check-ins, kiosk refusals and passes not honoured of the last 24 hours. */
export const ALERT_WINDOW_MS = 24 * 60 * 60 * 1000;

export interface AlertRow {
  kind: AlertKind;
  id: number;
  site_id: number;
  at: Date;
  at_us: number;
  sort_id: number;
  subject: string;
  reason: string | null;
  source: AlertSource;
  ack_at: Date | null;
  ack_by: Actor | null;
}

export const presentAlert = (row: AlertRow): Alert => ({
  kind: row.kind,
  checkinId: row.id,
  siteId: row.site_id,
  at: row.at.toISOString(),
  subject: row.subject,
  reason: row.reason,
  source: row.source,
  acknowledgedAt: row.ack_at ? row.ack_at.toISOString() : null,
  acknowledgedBy: row.ack_by,
});

/**
 * Every STOP of people and vehicles, and every raised alert (older forms, kiosk refusals), as one list. Its
 * order key is (when, id × 4 + table), so one keyset cursor pages through the three tables. A raised alert's
 * `id` is what names it with its kind: the check-in of a `form` alert, the alert's own of a `kiosk` one; the
 * person of a `form` alert is read from the check-in (so an erasure there reaches the alert too).
 */
function alertsSql(input: {
  accountId: number;
  siteIds?: number[];
  since: Date;
  only?: { kind: AlertKind; id: number };
}): Sql {
  const sites = (column: Sql) =>
    input.siteIds === undefined ? empty : sql`AND ${column} = ANY(${input.siteIds}::int[])`;
  const only = (kind: AlertKind, column: Sql) =>
    input.only ? sql`AND ${input.only.kind === kind}::boolean AND ${column} = ${input.only.id}::bigint` : empty;
  const raisedId = sql`CASE r.kind WHEN 'kiosk' THEN r.id ELSE r.checkin_id END`;
  const onlyRaised = input.only
    ? sql`AND r.kind = ${input.only.kind} AND ${raisedId} = ${input.only.id}::bigint`
    : empty;
  return sql`WITH alerts AS (
      SELECT 'person' AS kind, c.id, c.site_id, c.stopped_at AS at, c.id * 4 AS sort_id,
             btrim(c.first_name || ' ' || c.last_name) AS subject, c.stop_reason AS reason, c.stop_source AS source
      FROM person_checkins c
      WHERE c.account_id = ${input.accountId} AND c.stopped_at >= ${input.since} ${sites(sql`c.site_id`)} ${only('person', sql`c.id`)}
      UNION ALL
      SELECT 'vehicle', v.id, v.site_id, v.stopped_at, v.id * 4 + 1, v.license_plate, v.stop_reason, v.stop_source
      FROM vehicle_checkins v
      WHERE v.account_id = ${input.accountId} AND v.stopped_at >= ${input.since} ${sites(sql`v.site_id`)} ${only('vehicle', sql`v.id`)}
      UNION ALL
      SELECT r.kind, ${raisedId}, r.site_id, r.at, r.id * 4 + 2,
             COALESCE(r.kiosk_name, btrim(p.first_name || ' ' || p.last_name), ''), r.reason,
             CASE r.kind WHEN 'form' THEN 'olderForm' WHEN 'pass' THEN 'pass' ELSE 'kioskRefused' END
      FROM raised_alerts r
      LEFT JOIN person_checkins p ON p.account_id = r.account_id AND p.id = r.checkin_id
      WHERE r.account_id = ${input.accountId} AND r.at >= ${input.since} ${sites(sql`r.site_id`)} ${onlyRaised})
    SELECT a.kind, a.id, a.site_id, a.at, (extract(epoch FROM a.at) * 1000000)::bigint AS at_us, a.sort_id, a.subject, a.reason, a.source,
           k.at AS ack_at, k.actor AS ack_by
    FROM alerts a
    LEFT JOIN alert_acknowledgements k ON k.account_id = ${input.accountId} AND k.kind = a.kind AND k.checkin_id = a.id`;
}

export interface AlertFilter {
  accountId: number;
  siteIds?: number[];
  now: Date;
  limit: number;
  cursor?: string;
}

/** One page of alerts, newest first, with how many of all of them nobody has acknowledged yet. */
export async function listAlerts(db: Executor, filter: AlertFilter) {
  const { now, ...filters } = filter;
  const scope = filterScope('alerts', filters);
  const since = new Date(now.getTime() - ALERT_WINDOW_MS);
  const base = alertsSql({ accountId: filter.accountId, siteIds: filter.siteIds, since });
  const after =
    filter.cursor === undefined
      ? sql`true`
      : afterCursorSql(sql`a.at`, sql`a.sort_id`, decodeCursor(filter.cursor, scope));
  const rows = await queryRows<AlertRow>(
    db,
    sql`${base} WHERE ${after} ORDER BY a.at DESC, a.sort_id DESC LIMIT ${filter.limit + 1}`,
  );
  const count = await queryOne<{ unacknowledged: number }>(
    db,
    sql`SELECT count(*)::int AS unacknowledged FROM (${base} WHERE k.at IS NULL) unread`,
  );
  const paged = toPage(rows, filter.limit, presentAlert, (row) => ({ atMicros: row.at_us, id: row.sort_id }), scope);
  return { ...paged, unacknowledged: count?.unacknowledged ?? 0 };
}

/** One alert (any age) on the given sites, or undefined. */
export async function findAlert(
  db: Executor,
  input: { accountId: number; siteIds?: number[]; kind: AlertKind; checkinId: number },
): Promise<AlertRow | undefined> {
  return queryOne<AlertRow>(
    db,
    alertsSql({
      accountId: input.accountId,
      siteIds: input.siteIds,
      since: new Date(0),
      only: { kind: input.kind, id: input.checkinId },
    }),
  );
}
