import type { AuditActor, AuditEvent } from '../../../shared/src/schemas/audit';
import { type Executor, queryRows } from '../db/query';
import { type Sql, join, sql } from '../db/sql';
import { afterCursorSql, decodeCursor, filterScope, toPage } from './cursor';

export interface AuditFilter {
  accountId: number;
  /** undefined: every event of the account; else only events of these sites (account-wide events have none). */
  siteIds?: number[];
  from?: Date;
  to?: Date;
  actorType?: AuditActor['type'][];
  action?: string;
  limit: number;
  cursor?: string;
}

interface AuditRow {
  id: number;
  at: Date;
  at_us: number;
  actor_type: AuditActor['type'];
  actor_id: number;
  actor_name: string;
  action: string;
  target_type: string;
  target_id: number;
  site_id: number | null;
  request_id: string | null;
  detail: Record<string, string> | null;
}

const present = (row: AuditRow): AuditEvent => ({
  auditId: row.id,
  at: row.at.toISOString(),
  actor: { type: row.actor_type, id: row.actor_id, name: row.actor_name },
  action: row.action,
  target: { type: row.target_type, id: row.target_id },
  siteId: row.site_id,
  requestId: row.request_id,
  detail: row.detail,
});

/** One keyset page of the audit log, newest first (docs/api.md, Audit log). */
export async function listAuditEvents(
  db: Executor,
  filter: AuditFilter,
): Promise<{ data: AuditEvent[]; nextCursor: string | null }> {
  const scope = filterScope('audit_events', filter);
  const where: Sql[] = [sql`e.account_id = ${filter.accountId}`];
  if (filter.siteIds !== undefined) where.push(sql`e.site_id = ANY(${filter.siteIds}::int[])`);
  if (filter.from) where.push(sql`e.at >= ${filter.from}`);
  if (filter.to) where.push(sql`e.at <= ${filter.to}`);
  if (filter.actorType?.length) where.push(sql`e.actor_type = ANY(${filter.actorType}::text[])`);
  if (filter.action) where.push(sql`e.action = ${filter.action}`);
  if (filter.cursor !== undefined) where.push(afterCursorSql(sql`e.at`, sql`e.id`, decodeCursor(filter.cursor, scope)));
  const rows = await queryRows<AuditRow>(
    db,
    sql`SELECT e.id, e.at, (extract(epoch FROM e.at) * 1000000)::bigint AS at_us, e.actor_type, e.actor_id, e.actor_name,
               e.action, e.target_type, e.target_id, e.site_id, e.request_id, e.detail
        FROM audit_events e WHERE ${join(where, ' AND ')} ORDER BY e.at DESC, e.id DESC LIMIT ${filter.limit + 1}`,
  );
  return toPage(rows, filter.limit, present, (row) => ({ atMicros: row.at_us, id: row.id }), scope);
}
