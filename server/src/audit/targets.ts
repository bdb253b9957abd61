import type { AuditRecord } from './record';

/** A field of an object read as JSON (a reply body, path params), or undefined. */
export const memberOf = (value: unknown, name: string): unknown =>
  typeof value === 'object' && value !== null ? (value as Record<string, unknown>)[name] : undefined;

/** A numeric field of a reply body or of path params (an audit target's id). */
export function fieldOf(value: unknown, name: string): number {
  const field = memberOf(value, name);
  if (typeof field !== 'number') throw new Error(`audit: no numeric ${name} to name the target by`);
  return field;
}

/** The audit record of a change whose target's id is a field of the reply (a create, an update). */
export const auditReply =
  (action: string, type: string, idField: string) =>
  (_ctx: unknown, body: unknown): AuditRecord => ({
    action,
    target: { type, id: fieldOf(body, idField) },
    siteId: null,
  });

/** The audit record of a change whose target's id is a path parameter (a delete answers no body). */
export const auditParam =
  (action: string, type: string, param: string) =>
  (ctx: { params: unknown }): AuditRecord => ({
    action,
    target: { type, id: fieldOf(ctx.params, param) },
    siteId: null,
  });

/** Of a check-in (person or vehicle): its id and site are in the reply. */
export const auditCheckin =
  (action: string, type: 'person_checkin' | 'vehicle_checkin') =>
  (_ctx: unknown, body: unknown): AuditRecord => ({
    action,
    target: { type, id: fieldOf(body, 'checkinId') },
    siteId: fieldOf(body, 'siteId'),
  });

/** Entries and checkouts are audited when manual: made by a staff user, or said to be MANUAL. */
export const isManual = (principal: { userId: number | null }, source: string | undefined) =>
  principal.userId !== null || source === 'MANUAL';

/** Of a check-in's creation: audited only when made by a staff user (a kiosk's or an integration's is not). */
export const auditManualEntry =
  (action: string, type: 'person_checkin' | 'vehicle_checkin') =>
  (ctx: { principal: { userId: number | null } }, body: unknown): AuditRecord | undefined =>
    isManual(ctx.principal, undefined) ? auditCheckin(action, type)(ctx, body) : undefined;
