import type { HostImportResult } from '../../../shared/src/schemas/hosts';
import { writeAudit } from '../audit/record';
import type { Principal } from '../auth/principal';
import { type Executor, queryRows } from '../db/query';
import { raw, sql } from '../db/sql';
import { ProblemError } from '../errors/problem';
import { type HostCsvLine, readHostCsv } from '../imports/hostCsv';
import { siteVisibleSql } from '../policies/siteVisibility';
import type { HostRow } from '../presenters/host';
import { HOST_COLUMNS, hostVisibleSql } from '../queries/hosts';
import { type HostSites, type HostValues, insertHost, publishHostsChange, rewriteHost } from './hosts';

type Outcome = 'created' | 'updated';

/** Who imports, and in which request: each line written is audited as the single write would be. */
interface ImportContext {
  principal: Principal;
  requestId: string | null;
  now: Date;
}

/** The caller's sites by id and by name (case-insensitive), to read a line's `sites` with. */
async function siteDirectory(db: Executor, principal: Principal) {
  const rows = await queryRows<{ id: number; name: string }>(
    db,
    sql`SELECT s.id, s.name FROM sites s
        WHERE s.account_id = ${principal.accountId} AND ${siteVisibleSql(principal, sql`s.id`)}`,
  );
  const byName = new Map<string, number[]>();
  for (const row of rows) byName.set(row.name.toLowerCase(), [...(byName.get(row.name.toLowerCase()) ?? []), row.id]);
  return { ids: new Set(rows.map((row) => row.id)), byName };
}

/** A line's sites as ids, or why they cannot be. */
function resolveSites(
  line: HostCsvLine,
  principal: Principal,
  sites: Awaited<ReturnType<typeof siteDirectory>>,
): { allSites: boolean; siteIds: number[] } | string {
  if (line.sites.all) {
    return principal.allSites ? { allSites: true, siteIds: [] } : 'only someone who can view every site may give *';
  }
  const ids: number[] = [];
  for (const named of line.sites.names) {
    const id = /^[1-9][0-9]{0,9}$/.test(named) ? Number(named) : undefined;
    if (id !== undefined && sites.ids.has(id)) {
      ids.push(id);
      continue;
    }
    const matches = sites.byName.get(named.toLowerCase()) ?? [];
    if (matches.length > 1) return `site "${named}" names ${matches.length} sites: give its id`;
    const match = matches[0];
    if (match === undefined) return `no site "${named}" that you can manage`;
    ids.push(match);
  }
  return { allSites: false, siteIds: [...new Set(ids)] };
}

/** Runs `work` in a savepoint: a line's writes are kept whole or not at all. */
async function asOneLine<T>(db: Executor, work: () => Promise<T>): Promise<T> {
  await queryRows(db, sql`SAVEPOINT host_import_line`);
  try {
    const result = await work();
    await queryRows(db, sql`RELEASE SAVEPOINT host_import_line`);
    return result;
  } catch (error) {
    await queryRows(db, sql`ROLLBACK TO SAVEPOINT host_import_line`);
    throw error;
  }
}

/**
 * Imports a host list (docs/notifications.md, Importing hosts): each line creates a host, or updates the
 * host with its email (name, phone and sites; how it is told stays), all or nothing per line; lines that
 * cannot be imported are listed with why. Importing the same file again changes nothing.
 */
export async function importHosts(db: Executor, input: ImportContext & { csv: string }): Promise<HostImportResult> {
  const { principal } = input;
  const lines = readHostCsv(input.csv);
  const sites = await siteDirectory(db, principal);
  const result: HostImportResult = { created: 0, updated: 0, errors: [] };
  const seen = new Map<string, number>();
  // The sites of every line imported, before and after: one `hosts` event each at the end, not one per line.
  const touched: HostSites[] = [];
  for (const line of lines) {
    if ('detail' in line) {
      result.errors.push(line);
      continue;
    }
    const first = seen.get(line.email.toLowerCase());
    if (first !== undefined) {
      result.errors.push({ line: line.line, detail: `email ${line.email} is on line ${first} already` });
      continue;
    }
    seen.set(line.email.toLowerCase(), line.line);
    const resolved = resolveSites(line, principal, sites);
    if (typeof resolved === 'string') {
      result.errors.push({ line: line.line, detail: resolved });
      continue;
    }
    try {
      const imported = await asOneLine(db, () => importLine(db, input, line, resolved));
      result[imported.outcome] += 1;
      touched.push(...imported.sides);
    } catch (error) {
      if (!(error instanceof ProblemError)) throw error;
      result.errors.push({ line: line.line, detail: error.detail });
    }
  }
  await publishHostsChange(db, principal.accountId, touched);
  return result;
}

/** The line's host as it is already: nothing to write, publish or audit. */
const unchanged = (existing: HostRow, values: HostValues) =>
  existing.name === values.name &&
  existing.email === values.email &&
  existing.phone === values.phone &&
  existing.all_sites === values.allSites &&
  [...existing.site_ids].sort((a, b) => a - b).join() === [...values.siteIds].sort((a, b) => a - b).join();

/** A line's audit entry, as `POST /v1/hosts` and `PATCH /v1/hosts/{hostId}` write theirs, in the line's savepoint. */
const auditLine = (db: Executor, ctx: ImportContext, action: 'host.created' | 'host.updated', hostId: number) =>
  writeAudit(db, {
    action,
    target: { type: 'host', id: hostId },
    siteId: null,
    accountId: ctx.principal.accountId,
    actor: ctx.principal.actor,
    at: ctx.now,
    requestId: ctx.requestId,
  });

async function importLine(
  db: Executor,
  ctx: ImportContext,
  line: HostCsvLine,
  sites: { allSites: boolean; siteIds: number[] },
): Promise<{ outcome: Outcome; sides: HostSites[] }> {
  const { principal, now } = ctx;
  const [existing] = await queryRows<HostRow & { visible: boolean }>(
    db,
    sql`SELECT ${HOST_COLUMNS}, ${hostVisibleSql(principal)} AS visible FROM hosts h
        WHERE h.account_id = ${principal.accountId} AND lower(h.email) = lower(${line.email}) ${raw('FOR UPDATE OF h')}`,
  );
  if (existing && !existing.visible) {
    throw new ProblemError('NOT_FOUND', `a host with the email ${line.email} is on sites you cannot manage`);
  }
  const values: HostValues = {
    name: line.name,
    email: line.email,
    phone: line.phone,
    ...sites,
    notifyBy: existing?.notify_by ?? ['email'],
    chatWebhookUrl: existing?.chat_webhook_url ?? null,
    language: existing?.language ?? 'en',
  };
  if (!existing) {
    const hostId = await insertHost(db, { accountId: principal.accountId, values, now });
    await auditLine(db, ctx, 'host.created', hostId);
    return { outcome: 'created', sides: [values] };
  }
  if (unchanged(existing, values)) return { outcome: 'updated', sides: [] };
  await rewriteHost(db, { accountId: principal.accountId, hostId: existing.id, values, sitesChanged: true });
  await auditLine(db, ctx, 'host.updated', existing.id);
  return { outcome: 'updated', sides: [values, { allSites: existing.all_sites, siteIds: existing.site_ids }] };
}
