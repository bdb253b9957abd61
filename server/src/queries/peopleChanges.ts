import type { PersonStatus } from '../../../shared/src/domain/personCheckin';
import type { Source } from '../../../shared/src/schemas/common';
import type { PeopleChanges, PersonVisitChange } from '../../../shared/src/schemas/peopleChanges';
import { LockNamespace } from '../db/advisoryLocks';
import { type Executor, queryOne, queryRows } from '../db/query';
import { type Sql, sql } from '../db/sql';
import { problem } from '../errors/problem';
import { kioskVisibleSql } from '../policies/kioskWindow';
import { cursorScope } from './cursor';

/**
 * Where a reader of a site's people feed is: `position`, the feed number it has seen every change up to;
 * and while it is still reading the site's visits on site as they were at `position` (the first reading),
 * `afterId`, the last visit of that reading it has been given.
 */
interface FeedPosition {
  position: number;
  afterId: number | null;
}

interface VisitRow {
  position: number;
  change_seq: number | null;
  id: number | null;
  status: PersonStatus;
  first_name: string;
  last_name: string;
  company: string | null;
  entry_source: Source;
  entry_at: Date;
  exit_source: Source | null;
  exit_at: Date | null;
  badge_code: string | null;
  created_at: Date;
  updated_at: Date;
  breaks: Array<{ id: number; startedAt: string; endedAt: string | null }>;
}

// Tagged with the account and site, so a cursor of another site's feed is refused, not read as a position here.
// Kept: a kiosk pulls its feed at every change of its site, and the tag is a SHA-256.
const scopes = new Map<number, string>();
function scopeOf(accountId: number, siteId: number): string {
  let scope = scopes.get(siteId);
  if (scope === undefined) {
    if (scopes.size >= 50_000) scopes.clear();
    scope = cursorScope('people-changes', { accountId, siteId });
    scopes.set(siteId, scope);
  }
  return scope;
}
const encode = (at: FeedPosition, scope: string) =>
  Buffer.from(JSON.stringify([at.position, at.afterId, scope])).toString('base64url');
const notIssued = () =>
  problem('INVALID_QUERY', "The cursor is not one this site's people feed issued: start again without it.");

function decode(cursor: string, scope: string): FeedPosition {
  let value: unknown;
  try {
    value = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    throw notIssued();
  }
  if (!Array.isArray(value) || value.length !== 3) throw notIssued();
  const [position, afterId, tag] = value as unknown[];
  const isCount = (item: unknown) => typeof item === 'number' && Number.isSafeInteger(item) && item >= 0;
  if (!isCount(position) || (afterId !== null && !isCount(afterId)) || tag !== scope) throw notIssued();
  return { position: position as number, afterId: afterId as number | null };
}

const COLUMNS = sql`c.id, c.status, c.first_name, c.last_name, c.company, c.entry_source, c.entry_at, c.exit_source,
  c.exit_at, c.badge_code, c.created_at, c.updated_at,
  COALESCE((SELECT json_agg(json_build_object('id', b.id, 'startedAt', b.started_at, 'endedAt', b.ended_at)
                            ORDER BY b.started_at, b.id)
            FROM person_breaks b WHERE b.account_id = c.account_id AND b.checkin_id = c.id), '[]') AS breaks`;

/** No bound on the feed numbers read (for EXPLAIN in tests). */
const UNBOUNDED = Number.MAX_SAFE_INTEGER;

/**
 * The highest feed number of which every change, at this site, is settled (committed or rolled back). A
 * site's writers hold its feed lock shared from before they draw a number until they commit (migration
 * 0042), so they draw and commit together; taking the lock exclusively waits for those that hold it, and
 * every number drawn until then is settled once it is had. The lock goes with the statement (the pool
 * runs it on its own); a reading bounded by this number, in a later statement, never passes a number that
 * could still commit, which keeps the feed in commit order without writers waiting for each other.
 */
const settledSql = (siteId: number): Sql => sql`
  SELECT CASE WHEN (SELECT true FROM pg_advisory_xact_lock(${LockNamespace.PEOPLE_FEED}::integer, ${siteId}::integer))
    THEN COALESCE(pg_sequence_last_value('person_feed_seq'), 0) END::bigint AS settled`;

async function settledPosition(db: Executor, siteId: number): Promise<number> {
  const row = await queryOne<{ settled: number }>(db, settledSql(siteId), { prepare: true });
  if (row === undefined) throw new Error('the feed lock answered no row');
  return row.settled;
}

/**
 * The first reading: the visits on site (every status but OUT) after `afterId`, in id order, with the
 * site's feed number as of the same snapshot, so the changes after it are exactly what this reading missed.
 * A kiosk (`kioskSince`) gets a refused (STOP) visit only for a day, as its `/kiosk/people` list.
 */
export const onSiteSql = (
  accountId: number,
  siteId: number,
  afterId: number,
  limit: number,
  kioskSince?: Date,
  settled = UNBOUNDED,
): Sql => sql`
  WITH feed AS (
    SELECT COALESCE(max(change_seq), 0)::bigint AS position FROM person_feed
    WHERE account_id = ${accountId} AND site_id = ${siteId} AND change_seq <= ${settled}::bigint)
  SELECT feed.position, NULL::bigint AS change_seq, v.*
  FROM feed LEFT JOIN LATERAL (
    SELECT ${COLUMNS} FROM person_checkins c
    WHERE c.account_id = ${accountId} AND c.site_id = ${siteId} AND c.status <> 'OUT' AND c.id > ${afterId}
      AND ${kioskSince ? kioskVisibleSql('person', kioskSince) : sql`true`}
    ORDER BY c.id LIMIT ${limit + 1}) v ON true`;

/**
 * The visits changed after `position`, oldest change first, each as it is now. Each is looked up by its
 * key (LATERAL … LIMIT 1), so a page costs the same whatever the site's history (as the vehicle feed's).
 */
export const changedSql = (
  accountId: number,
  siteId: number,
  position: number,
  limit: number,
  settled = UNBOUNDED,
): Sql => sql`
  WITH page AS (
    SELECT checkin_id, change_seq FROM person_feed
    WHERE account_id = ${accountId} AND site_id = ${siteId} AND change_seq > ${position}
      AND change_seq <= ${settled}::bigint
    ORDER BY change_seq LIMIT ${limit + 1})
  SELECT ${position}::bigint AS position, p.change_seq, v.*
  FROM page p CROSS JOIN LATERAL (
    SELECT ${COLUMNS} FROM person_checkins c
    WHERE c.account_id = ${accountId} AND c.id = p.checkin_id LIMIT 1) v
  ORDER BY p.change_seq`;

function present(row: VisitRow & { id: number }): PersonVisitChange {
  return {
    checkinId: row.id,
    status: row.status,
    person: { firstName: row.first_name, lastName: row.last_name, company: row.company },
    entry: { source: row.entry_source, at: row.entry_at.toISOString() },
    exit: row.exit_at && row.exit_source ? { source: row.exit_source, at: row.exit_at.toISOString() } : null,
    breaks: row.breaks.map((item) => ({
      breakId: item.id,
      startedAt: new Date(item.startedAt).toISOString(),
      endedAt: item.endedAt === null ? null : new Date(item.endedAt).toISOString(),
    })),
    badgeCode: row.badge_code,
    createdAt: row.created_at.toISOString(),
    updatedAt: row.updated_at.toISOString(),
  };
}

/**
 * A site's people feed for kiosks (docs/api.md, People change feed). Without a cursor: the visits on site
 * now, page by page; then every visit changed since, in the order of its latest change, each once, as it is
 * now (OUT ones included, so a kiosk lets them go). An unchanged site answers no visit and the same cursor.
 */
export async function readPeopleChanges(
  db: Executor,
  input: { accountId: number; siteId: number; cursor?: string; limit: number; kioskSince?: Date },
): Promise<PeopleChanges> {
  const { accountId, siteId, limit, kioskSince } = input;
  const scope = scopeOf(accountId, siteId);
  const at: FeedPosition = input.cursor === undefined ? { position: -1, afterId: 0 } : decode(input.cursor, scope);
  const settled = await settledPosition(db, siteId);
  if (at.afterId !== null) {
    const rows = await queryRows<VisitRow>(db, onSiteSql(accountId, siteId, at.afterId, limit, kioskSince, settled), {
      prepare: true,
    });
    const position = at.position < 0 ? (rows[0]?.position ?? 0) : at.position;
    const visits = rows.filter((row): row is VisitRow & { id: number } => row.id !== null);
    const answered = visits.slice(0, limit);
    const hasMore = visits.length > limit;
    const last = answered.at(-1)?.id ?? at.afterId;
    // The reading done, the next page is the changes since its snapshot: the caller asks again at once.
    const next: FeedPosition = hasMore ? { position, afterId: last } : { position, afterId: null };
    return { data: answered.map(present), nextCursor: encode(next, scope), hasMore: true };
  }
  const rows = await queryRows<VisitRow & { id: number }>(
    db,
    changedSql(accountId, siteId, at.position, limit, settled),
    { prepare: true },
  );
  const answered = rows.slice(0, limit);
  const position = answered.at(-1)?.change_seq ?? at.position;
  return {
    data: answered.map(present),
    nextCursor: encode({ position, afterId: null }, scope),
    hasMore: rows.length > limit,
  };
}
