import type { Context } from 'koa';
import { normalizePlate } from '../../../../shared/src/domain';
import {
  CsvText,
  type ExportQuery,
  PersonExportQuery,
  VehicleExportQuery,
} from '../../../../shared/src/schemas/exports';
import type { AuditRecord } from '../../audit/record';
import { type Principal, principalKey } from '../../auth/principal';
import type { Executor } from '../../db/query';
import { EXPORT_THREAD_DEFAULTS } from '../../exports/exportThreads';
import { viewableSites } from '../../policies/viewableSites';
import type { ExportFilter } from '../../queries/checkinExport';
import { customColumns } from '../../queries/customColumns';
import { defineRoute } from '../define';

const RANGE =
  "`from` and `to` are days in each site's time zone (`2026-11-25`) or RFC 3339 instants; a visit is exported when it overlaps the range (entered before its end, and not left before its start); `to` before `from` is a 400. Without `siteIds`, every site the caller can view; a site it cannot view is a 404. Times are site-local with their offset. A cell starting with `=`, `+`, `-`, `@`, tab or CR is prefixed with `'`. Streamed: any number of rows.";

/** What a third export at once is told (docs/api.md, Export). */
const EXPORT_WAIT = `UNAVAILABLE: ${EXPORT_THREAD_DEFAULTS.concurrency} exports are running on this server and this one waited ${EXPORT_THREAD_DEFAULTS.queueMs / 1000} s for its turn (retry after \`Retry-After\`)`;

const query = { siteIds: '1,2', from: '2026-11-25', to: '2026-11-25' };
const personQuery = { ...query, q: 'love' };

async function filterOf(
  db: Executor,
  principal: Principal,
  input: ExportQuery & { q?: string; licensePlate?: string },
  now: Date,
): Promise<ExportFilter> {
  const siteIds = await viewableSites(db, principal, input.siteIds);
  const plateNorm = input.licensePlate === undefined ? undefined : normalizePlate(input.licensePlate);
  return { accountId: principal.accountId, siteIds, from: input.from, to: input.to, q: input.q, plateNorm, now };
}

/** An export names no person: only that the account's check-ins were exported, and by whom (the audit row). */
const audited =
  (action: string) =>
  (ctx: { principal: Principal }): AuditRecord => ({
    action,
    target: { type: 'account', id: ctx.principal.accountId },
    siteId: null,
  });

/** Aborted when the client goes away before the export starts, so it stops waiting for its turn. */
function clientLeft(koa: Context): AbortSignal {
  const left = new AbortController();
  koa.res.once('close', () => left.abort());
  return left.signal;
}

/** The export runs in a thread of its own (exports/exportThreads.ts): its memory stays bounded whatever its size. */
const csv = (name: string, chunks: AsyncIterable<Buffer>, stallMs: number) => ({
  status: 200,
  headers: { 'Content-Disposition': `attachment; filename="${name}.csv"` },
  stream: { contentType: 'text/csv; charset=utf-8', chunks, stallMs },
});

/** One export at a time per token or user (docs/api.md, Export). */
const EXPORT_BUSY =
  'EXPORT_IN_PROGRESS: the same token or user has an export running (or waiting for its turn); one at a time each';

export const exportRoutes = [
  defineRoute({
    method: 'GET',
    path: '/checkins/people/export',
    summary: 'Person check-ins as CSV (RFC 4180, UTF-8 with BOM), for a range of days',
    description: `One row per visit: checkinId, site, status, names, email, phone, company, host, purpose, one column per custom field of the sites (by label), entry and exit source and time, breaks, minutes on break, decided by. ${RANGE} \`q\` keeps the visits whose first name, last name, email or company begins with it (case-insensitive), as in the search.`,
    examples: {
      query: personQuery,
      response:
        '\uFEFFcheckinId,site,status,firstName,lastName,email,phone,company,host,purpose,entrySource,entryTime,exitSource,exitTime,breaks,minutesOnBreak,decidedBy\r\n41,Main lobby,OUT,Ada,Lovelace,ada@example.com,,Analytical Engines,Grace Hopper,Meeting,KIOSK,2026-11-25T09:02:11+01:00,MANUAL,2026-11-25T11:40:00+01:00,1,12,\r\n',
    },
    tag: 'Exports',
    auth: 'token',
    scope: 'exports:read',
    query: PersonExportQuery,
    responses: { 200: CsvText },
    mediaType: 'text/csv',
    refusals: { 409: EXPORT_BUSY, 503: EXPORT_WAIT },
    audit: audited('checkins.exported'),
    handler: async ({ db, principal, query: input, now, deps, koa }) => {
      const filter = await filterOf(db, principal, input, now);
      const custom = await customColumns(db, filter.accountId, filter.siteIds);
      return csv(
        'person-checkins',
        await deps.exportThreads.start({ kind: 'people', filter, custom }, principalKey(principal), clientLeft(koa)),
        deps.exportThreads.stallMs,
      );
    },
  }),
  defineRoute({
    method: 'GET',
    path: '/checkins/vehicles/export',
    summary: 'Vehicle check-ins as CSV (RFC 4180, UTF-8 with BOM), for a range of days',
    description: `One row per visit: checkinId, site, status, license plate, driver, notes, entry and exit source and time, stop reason, decided by. ${RANGE} \`licensePlate\` keeps that plate's visits (compared normalized), as in the search.`,
    examples: {
      query,
      response:
        '\uFEFFcheckinId,site,status,licensePlate,driver,notes,entrySource,entryTime,exitSource,exitTime,stopReason,decidedBy\r\n7,North gate,OUT,B-AB 123,Sam Driver,,KIOSK,2026-11-25T07:55:00+01:00,KIOSK,2026-11-25T16:10:00+01:00,,\r\n',
    },
    tag: 'Exports',
    auth: 'token',
    scope: 'exports:read',
    query: VehicleExportQuery,
    responses: { 200: CsvText },
    mediaType: 'text/csv',
    refusals: { 409: EXPORT_BUSY, 503: EXPORT_WAIT },
    audit: audited('vehicle_checkins.exported'),
    handler: async ({ db, principal, query: input, now, deps, koa }) =>
      csv(
        'vehicle-checkins',
        await deps.exportThreads.start(
          { kind: 'vehicles', filter: await filterOf(db, principal, input, now) },
          principalKey(principal),
          clientLeft(koa),
        ),
        deps.exportThreads.stallMs,
      ),
  }),
];
