import { z } from 'zod';
import { Id, Instant, IntId, PageQuery, Timestamp, commaList } from './common';
import { Actor } from './staff';

export const auditActorTypes = ['user', 'token', 'operator', 'host'] as const;

/**
 * Who made an audited change: a staff user or a token, as everywhere, or the operator of the management API
 * (`ADMIN_TOKEN`), who has no id in any account: `{type: "operator", id: 0, name: "Management API"}`.
 */
export const AuditActor = Actor.extend({
  type: z.enum(auditActorTypes),
  id: z.number().int().min(0).max(2_147_483_647),
});
export type AuditActor = z.infer<typeof AuditActor>;

export const AuditEvent = z.object({
  auditId: Id,
  at: Timestamp,
  actor: AuditActor,
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
  .transform((raw) =>
    raw
      .split(',')
      .map((part) => part.trim())
      .filter((part) => part !== ''),
  )
  .pipe(
    z
      .array(
        z
          .string()
          .regex(/^[1-9][0-9]{0,9}$/, 'Site ids are positive integers')
          .transform(Number)
          .pipe(IntId),
      )
      .min(1)
      .max(500),
  );

export const AuditEventQuery = PageQuery.extend({
  from: Instant.optional(),
  to: Instant.optional(),
  actorType: commaList(auditActorTypes).optional(),
  action: z.string().trim().min(1).max(100).optional(),
  siteIds: siteIdList.optional(),
});
export type AuditEventQuery = z.infer<typeof AuditEventQuery>;

/** A comma-separated list of site ids in a query string (`siteIds=1,2`). */
export const SiteIdList = siteIdList;
