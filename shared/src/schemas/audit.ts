import { z } from 'zod';
import { Id, Instant, IntId, PageQuery, Timestamp, commaList } from './common';
import { Actor } from './staff';

export const AuditEvent = z.object({
  auditId: Id,
  at: Timestamp,
  actor: Actor,
  action: z.string(),
  target: z.object({ type: z.string(), id: Id }),
  siteId: IntId.nullable(),
  requestId: z.string().nullable(),
  /** More about the change where its target does not say it all (an erasure: `identifiersHash`); else null. */
  detail: z.record(z.string(), z.string()).nullable(),
});
export type AuditEvent = z.infer<typeof AuditEvent>;

const siteIdList = z
  .string()
  .transform((raw) => raw.split(',').map((part) => part.trim()).filter((part) => part !== ''))
  .pipe(z.array(z.string().regex(/^[1-9][0-9]{0,9}$/, 'Site ids are positive integers').transform(Number).pipe(IntId)).min(1).max(500));

export const AuditEventQuery = PageQuery.extend({
  from: Instant.optional(),
  to: Instant.optional(),
  actorType: commaList(['user', 'token'] as const).optional(),
  action: z.string().trim().min(1).max(100).optional(),
  siteIds: siteIdList.optional(),
});
export type AuditEventQuery = z.infer<typeof AuditEventQuery>;

/** A comma-separated list of site ids in a query string (`siteIds=1,2`). */
export const SiteIdList = siteIdList;
