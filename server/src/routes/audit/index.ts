import { AuditEvent, AuditEventQuery } from '../../../../shared/src/schemas/audit';
import { page } from '../../../../shared/src/schemas/common';
import { viewableSites } from '../../policies/viewableSites';
import { listAuditEvents } from '../../queries/auditEvents';
import { defineRoute } from '../define';
import { auditEventExample } from '../staffExamples';

export const auditRoutes = [
  defineRoute({
    method: 'GET',
    path: '/audit-events',
    summary: 'The audit log, newest first: who changed what (a caller limited to some sites sees only their events)',
    description:
      'Every write by a staff user or a token (users, site configuration, watchlist, labels, vehicles, webhooks, approvals, manual check-ins and checkouts, alert acknowledgements), newest first. A caller limited to some sites sees only events of those sites.',
    examples: {
      response: { data: [auditEventExample], nextCursor: null },
      query: { actorType: 'user', action: 'checkin.approved' },
    },
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
