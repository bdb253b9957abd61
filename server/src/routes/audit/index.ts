import { AuditEvent, AuditEventQuery } from '../../../../shared/src/schemas/audit';
import { page } from '../../../../shared/src/schemas/common';
import { viewableSites } from '../../policies/viewableSites';
import { listAuditEvents } from '../../queries/auditEvents';
import { defineRoute } from '../define';

export const auditRoutes = [
  defineRoute({
    method: 'GET',
    path: '/audit-events',
    summary: 'The audit log, newest first: who changed what (a caller limited to some sites sees only their events)',
    tag: 'Audit log',
    auth: 'token',
    scope: 'audit:read',
    query: AuditEventQuery,
    responses: { 200: page(AuditEvent) },
    handler: async ({ db, principal, query }) => ({
      status: 200,
      body: await listAuditEvents(db, {
        accountId: principal.accountId,
        siteIds: await viewableSites(db, principal, query.siteIds),
        from: query.from ? new Date(query.from) : undefined,
        to: query.to ? new Date(query.to) : undefined,
        actorType: query.actorType,
        action: query.action,
        limit: query.limit,
        cursor: query.cursor,
      }),
    }),
  }),
];
