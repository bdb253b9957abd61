import type { AuditActor } from '../../../shared/src/schemas/audit';
import { type Executor, queryRows } from '../db/query';
import { type Sql, sql } from '../db/sql';

/** What a change says about itself for the audit log (docs/api.md, Audit log). */
export interface AuditRecord {
  action: string;
  target: { type: string; id: number };
  siteId: number | null;
  /** What else the entry must say, never personal data (an erasure's hash of the identifiers). */
  detail?: Record<string, string>;
  /** Only for the management API, which acts for no account: the account the change belongs to. */
  accountId?: number;
}

/** One audit row: the record, who did it, when, in which request. */
export interface AuditEntry extends AuditRecord {
  accountId: number;
  actor: AuditActor;
  at: Date;
  requestId: string | null;
}

const values = (
  entry: AuditEntry,
) => sql`${entry.accountId}::integer, ${entry.at}::timestamptz, ${entry.actor.type}, ${entry.actor.id}::integer,
  ${entry.actor.name}, ${entry.action}, ${entry.target.type}, ${entry.target.id}::bigint, ${entry.siteId}::integer, ${entry.requestId}::text,
  ${entry.detail === undefined ? null : JSON.stringify(entry.detail)}::jsonb`;

const COLUMNS = sql`(account_id, at, actor_type, actor_id, actor_name, action, target_type, target_id, site_id, request_id, detail)`;

/** The management API's caller (ADMIN_TOKEN): no user or token of any account, so no id. */
export const OPERATOR_ACTOR: AuditActor = { type: 'operator', id: 0, name: 'Management API' };

/**
 * The audit CTE of a write statement (WriteParts.audit): the entry, written only when `applied` holds (the
 * change happened); without an entry, a CTE that does nothing.
 */
export const auditCte =
  (entry: AuditEntry | undefined) =>
  (applied: Sql): Sql =>
    entry
      ? sql`audit AS (
    INSERT INTO audit_events ${COLUMNS} SELECT ${values(entry)} WHERE ${applied})`
      : sql`audit AS (SELECT 1)`;

/** Writes the entry on `db`: inside the change's transaction, so both commit or neither does. */
export async function writeAudit(db: Executor, entry: AuditEntry): Promise<void> {
  await queryRows(db, sql`INSERT INTO audit_events ${COLUMNS} SELECT ${values(entry)}`);
}
