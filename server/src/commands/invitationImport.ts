import { siteLocalInstant } from '../../../shared/src/domain';
import { Instant } from '../../../shared/src/schemas/common';
import { CreateInvitationRequest, type InvitationImportResult } from '../../../shared/src/schemas/invitations';
import { writeAudit } from '../audit/record';
import { type Executor, queryOne, queryRows } from '../db/query';
import { sql } from '../db/sql';
import { ProblemError } from '../errors/problem';
import { type InvitationCsvLine, readInvitationCsv } from '../imports/invitationCsv';
import { siteVisibleSql } from '../policies/siteVisibility';
import { type InvitationContext, changeInvitation, createInvitation } from './invitations';

interface SiteEntry {
  id: number;
  name: string;
  timezone: string;
}

/** The caller's sites by id and by name (case-insensitive), to read a line's `site` with. */
async function siteDirectory(db: Executor, ctx: InvitationContext) {
  const rows = await queryRows<SiteEntry>(
    db,
    sql`SELECT s.id, s.name, s.timezone FROM sites s
        WHERE s.account_id = ${ctx.principal.accountId} AND ${siteVisibleSql(ctx.principal, sql`s.id`)}`,
  );
  return (named: string): SiteEntry | string => {
    const byId = /^[1-9][0-9]{0,9}$/.test(named) ? rows.find((row) => row.id === Number(named)) : undefined;
    if (byId) return byId;
    const matches = rows.filter((row) => row.name.toLowerCase() === named.toLowerCase());
    if (matches.length > 1) return `site "${named}" names ${matches.length} sites: give its id`;
    return matches[0] ?? `no site "${named}" that you can see`;
  };
}

/** The site's host a line names by id, email or name; undefined for none named, a string for why not. */
async function hostNamed(db: Executor, ctx: InvitationContext, siteId: number, named: string | undefined) {
  if (named === undefined) return undefined;
  const rows = await queryRows<{ id: number }>(
    db,
    sql`SELECT h.id FROM hosts h
        WHERE h.account_id = ${ctx.principal.accountId}
          AND (h.id::text = ${named} OR lower(h.email) = lower(${named}) OR lower(h.name) = lower(${named}))
          AND (h.all_sites OR EXISTS (SELECT 1 FROM host_sites hs
               WHERE hs.account_id = h.account_id AND hs.host_id = h.id AND hs.site_id = ${siteId}))
        LIMIT 2`,
  );
  if (rows.length > 1) return `host "${named}" names several hosts: give their email`;
  return rows[0]?.id ?? `no host "${named}" at this site`;
}

/** A time of a line: RFC 3339, or `YYYY-MM-DD HH:MM` on the site's clock. */
function timeOf(text: string | undefined, site: SiteEntry): string | undefined | null {
  if (text === undefined) return undefined;
  if (Instant.safeParse(text).success) return text;
  return siteLocalInstant(text, site.timezone)?.toISOString() ?? null;
}

/** A line as the create request it stands for, or why it cannot be one. */
async function requestOf(
  db: Executor,
  ctx: InvitationContext,
  line: InvitationCsvLine,
  siteOf: (named: string) => SiteEntry | string,
): Promise<CreateInvitationRequest | string> {
  const { cells } = line;
  const site = siteOf(cells.site ?? '');
  if (typeof site === 'string') return site;
  const hostId = await hostNamed(db, ctx, site.id, cells.host);
  if (typeof hostId === 'string') return hostId;
  const times = {
    expectedAt: timeOf(cells.expectedat, site),
    validFrom: timeOf(cells.validfrom, site),
    validUntil: timeOf(cells.validuntil, site),
  };
  for (const [name, value] of Object.entries(times))
    if (value === null) return `${name} is not a time (RFC 3339, or YYYY-MM-DD HH:MM on the site's clock)`;
  const parsed = CreateInvitationRequest.safeParse({
    siteId: site.id,
    person: {
      firstName: cells.firstname ?? '',
      lastName: cells.lastname ?? '',
      email: cells.email,
      phone: cells.phone,
      company: cells.company,
    },
    hostId,
    purpose: cells.purpose,
    expectedAt: times.expectedAt ?? '',
    validFrom: times.validFrom ?? undefined,
    validUntil: times.validUntil ?? undefined,
  });
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    return `${issue?.path.join('.') || 'line'}: ${issue?.message ?? 'not valid'}`;
  }
  return parsed.data;
}

/** The expected invitation a line stands for: same site, expected time and visitor (email, else name). */
async function matching(db: Executor, ctx: InvitationContext, request: CreateInvitationRequest) {
  const { person } = request;
  const visitor = person.email
    ? sql`lower(i.email) = lower(${person.email})`
    : sql`i.email IS NULL AND lower(i.first_name) = lower(${person.firstName}) AND lower(i.last_name) = lower(${person.lastName})`;
  return queryOne<{ id: number }>(
    db,
    sql`SELECT i.id FROM invitations i
        WHERE i.account_id = ${ctx.principal.accountId} AND i.site_id = ${request.siteId} AND i.status = 'expected'
          AND i.expected_at = ${request.expectedAt}::timestamptz AND ${visitor}
        ORDER BY i.id LIMIT 1 FOR UPDATE`,
  );
}

/** Runs `work` in a savepoint: a line's writes are kept whole or not at all. */
async function asOneLine<T>(db: Executor, work: () => Promise<T>): Promise<T> {
  await queryRows(db, sql`SAVEPOINT invitation_import_line`);
  try {
    const result = await work();
    await queryRows(db, sql`RELEASE SAVEPOINT invitation_import_line`);
    return result;
  } catch (error) {
    await queryRows(db, sql`ROLLBACK TO SAVEPOINT invitation_import_line`);
    throw error;
  }
}

const problemDetail = (error: ProblemError) =>
  error.extras.errors && error.extras.errors.length > 0
    ? error.extras.errors.map((item) => `${item.path}: ${item.message}`).join('; ')
    : error.detail;

/**
 * Imports a list of expected visitors (docs/invitations.md, Importing): each line creates an invitation (and
 * emails its pass as a create does), or updates the expected invitation of the same site, visitor and time;
 * all or nothing per line; the lines that could not be imported are listed with why. Importing the same file
 * again creates nothing.
 */
export async function importInvitations(
  db: Executor,
  ctx: InvitationContext & { requestId: string | null },
  csv: string,
): Promise<InvitationImportResult> {
  // Each line written is audited as POST and PATCH /v1/invitations audit theirs, in the line's savepoint.
  const audit = (
    action: 'invitation.created' | 'invitation.updated',
    invitation: { invitationId: number; siteId: number },
  ) =>
    writeAudit(db, {
      action,
      target: { type: 'invitation', id: invitation.invitationId },
      siteId: invitation.siteId,
      accountId: ctx.principal.accountId,
      actor: ctx.principal.actor,
      at: ctx.now,
      requestId: ctx.requestId,
    });
  const lines = readInvitationCsv(csv);
  const siteOf = await siteDirectory(db, ctx);
  const result: InvitationImportResult = { created: 0, updated: 0, errors: [] };
  const seen = new Map<string, number>();
  for (const line of lines) {
    if ('detail' in line) {
      result.errors.push(line);
      continue;
    }
    const request = await requestOf(db, ctx, line, siteOf);
    if (typeof request === 'string') {
      result.errors.push({ line: line.line, detail: request });
      continue;
    }
    const key = JSON.stringify([
      request.siteId,
      Date.parse(request.expectedAt),
      (request.person.email ?? `${request.person.firstName} ${request.person.lastName}`).toLowerCase(),
    ]);
    const first = seen.get(key);
    if (first !== undefined) {
      result.errors.push({ line: line.line, detail: `the same visitor at the same time is on line ${first} already` });
      continue;
    }
    seen.set(key, line.line);
    try {
      const outcome = await asOneLine(db, async () => {
        const existing = await matching(db, ctx, request);
        if (!existing) {
          await audit('invitation.created', await createInvitation(db, ctx, request));
          return 'created' as const;
        }
        const { siteId: _site, sendEmail: _send, ...changes } = request;
        // A line that changes nothing writes, publishes and audits nothing; it still counts as updated.
        const updated = await changeInvitation(db, ctx, { invitationId: existing.id, request: changes });
        if (updated.changed) await audit('invitation.updated', updated.invitation);
        return 'updated' as const;
      });
      result[outcome] += 1;
    } catch (error) {
      if (!(error instanceof ProblemError)) throw error;
      result.errors.push({ line: line.line, detail: problemDetail(error) });
    }
  }
  return result;
}
