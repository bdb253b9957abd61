import { page } from '../../../../shared/src/schemas/common';
import {
  CreateInvitationRequest,
  Invitation,
  InvitationIdParams,
  InvitationImportCsv,
  InvitationImportResult,
  InvitationListQuery,
  InvitationPass,
  UpdateInvitationRequest,
} from '../../../../shared/src/schemas/invitations';
import type { AuditRecord } from '../../audit/record';
import { fieldOf } from '../../audit/targets';
import { importInvitations } from '../../commands/invitationImport';
import {
  type InvitationContext,
  cancelInvitation,
  createInvitation,
  passOf,
  resendInvitation,
  updateInvitation,
} from '../../commands/invitations';
import { notFound } from '../../errors/problem';
import { passQrPng } from '../../passes/passIssuer';
import { viewableSites } from '../../policies/viewableSites';
import { presentInvitation } from '../../presenters/invitation';
import { findVisibleInvitation, listInvitations } from '../../queries/invitations';
import { type HandlerContext, defineRoute } from '../define';
import { invitationCsvExample, invitationExample, passTokenExample } from './examples';
import { passKeyRoutes } from './passKeys';

const tag = 'Invitations';
const sites =
  'Only invitations of sites the caller can view: another is a 404, as if it did not exist. Writes are audited (`invitation.*`).';

/** The audit record of an invitation change: the invitation and its site, from the reply. */
const auditInvitation =
  (action: string) =>
  (_ctx: unknown, body: unknown): AuditRecord => ({
    action,
    target: { type: 'invitation', id: fieldOf(body, 'invitationId') },
    siteId: fieldOf(body, 'siteId'),
  });

const contextOf = (ctx: HandlerContext<unknown, unknown, unknown>): InvitationContext => ({
  principal: ctx.principal,
  now: ctx.now,
  secret: ctx.deps.env.PASS_KEY_SECRET,
});

export const invitationRoutes = [
  defineRoute({
    method: 'POST',
    path: '/invitations',
    summary: 'Invite a visitor: an expected visit with a signed pass, emailed to the visitor',
    description: `Creates an invitation and its pass (a JWS signed with the account's Ed25519 key; see \`GET …/{invitationId}/pass\`). \`validFrom\` and \`validUntil\` left out: the expected day at the site, from its local midnight to the next. \`expectedAt\` must lie within them, \`validUntil\` must be in the future, and a pass is valid for at most 366 days. \`hostId\` must be a host of the site. When the visitor has an \`email\` and \`sendEmail\` is not false, the pass is emailed to them (a QR code, the pass as text, and an \`.ics\` calendar entry) through the notification outbox: see \`passEmail\`. ${sites}`,
    examples: {
      request: {
        siteId: 1,
        person: { firstName: 'Ada', lastName: 'Lovelace', email: 'ada@example.com', company: 'ACME' },
        hostId: 7,
        purpose: 'Design review',
        expectedAt: '2026-11-24T09:30:00Z',
      },
      response: invitationExample,
    },
    tag,
    auth: 'token',
    scope: 'invitations:write',
    body: CreateInvitationRequest,
    responses: { 201: Invitation },
    conflict: { codes: ['SITE_ARCHIVED: the site is archived: it expects no visitors'] },
    audit: auditInvitation('invitation.created'),
    handler: async (ctx) => ({ status: 201, body: await createInvitation(ctx.db, contextOf(ctx), ctx.body) }),
  }),
  defineRoute({
    method: 'GET',
    path: '/invitations',
    summary: 'List invitations, earliest expected first, by sites, day and status',
    description: `The invitations of the given sites (\`siteIds=1,2\`; omitted: every site the caller can view; a listed site it cannot view is a 404) expected from \`from\` (included) to \`to\` (excluded), in the given statuses (\`status=expected,arrived\`). \`expired\` is an expected invitation whose \`validUntil\` has passed. Ordered by \`expectedAt\`, then id: a day's agenda. ${sites}`,
    examples: {
      query: { siteIds: '1', from: '2026-11-24T00:00:00Z', to: '2026-11-25T00:00:00Z' },
      response: { data: [invitationExample], nextCursor: null },
    },
    tag,
    auth: 'token',
    scope: 'invitations:read',
    query: InvitationListQuery,
    responses: { 200: page(Invitation) },
    handler: async ({ db, principal, query, now }) => {
      const siteIds = await viewableSites(db, principal, query.siteIds);
      const list = await listInvitations(db, { accountId: principal.accountId, ...query, siteIds }, now);
      return { status: 200, body: list.page((row) => presentInvitation(row, now)) };
    },
  }),
  defineRoute({
    method: 'GET',
    path: '/invitations/:invitationId',
    summary: 'Read an invitation',
    description: `One invitation, with whether the visitor has arrived (\`status\`, \`checkinId\`, \`arrivedAt\`) and how the email of the pass fared (\`passEmail\`). ${sites}`,
    examples: { response: invitationExample },
    tag,
    auth: 'token',
    scope: 'invitations:read',
    params: InvitationIdParams,
    responses: { 200: Invitation },
    handler: async ({ db, principal, params, now }) => {
      const row = await findVisibleInvitation(db, principal, params.invitationId);
      if (!row) throw notFound(`Invitation ${params.invitationId} does not exist.`);
      return { status: 200, body: presentInvitation(row, now) };
    },
  }),
  defineRoute({
    method: 'PATCH',
    path: '/invitations/:invitationId',
    summary: 'Change an expected invitation',
    description: `Changes the fields sent (\`null\` clears an optional one) of an \`expected\` or \`expired\` invitation (else 409 INVITATION_CLOSED). A new \`expectedAt\` sent without \`validFrom\`/\`validUntil\` moves the validity to its day. A change of the visitor's name or of the validity makes a new pass and revokes the old one (kiosks refuse it); the new pass is emailed to the visitor, as is the pass to a changed email, when the invitation emails the visitor. ${sites}`,
    examples: { request: { expectedAt: '2026-11-24T14:00:00Z' }, response: invitationExample },
    tag,
    auth: 'token',
    scope: 'invitations:write',
    params: InvitationIdParams,
    body: UpdateInvitationRequest,
    responses: { 200: Invitation },
    conflict: { codes: ['INVITATION_CLOSED: the invitation is arrived or cancelled'], current: Invitation },
    audit: auditInvitation('invitation.updated'),
    handler: async (ctx) => ({
      status: 200,
      body: await updateInvitation(ctx.db, contextOf(ctx), {
        invitationId: ctx.params.invitationId,
        request: ctx.body,
      }),
    }),
  }),
  defineRoute({
    method: 'POST',
    path: '/invitations/:invitationId/cancel',
    summary: 'Cancel an invitation: its pass is revoked',
    description: `Cancels an \`expected\` (or \`expired\`) invitation; others are 409 INVITATION_CLOSED. The pass is revoked: the server holds any check-in with it (\`PENDING\`, with an alert), and the site's kiosks refuse it offline from their next pull (\`GET /v1/sites/{siteId}/kiosk/passes\`). ${sites}`,
    examples: { response: { ...invitationExample, status: 'cancelled' } },
    tag,
    auth: 'token',
    scope: 'invitations:write',
    params: InvitationIdParams,
    responses: { 200: Invitation },
    conflict: { codes: ['INVITATION_CLOSED: the invitation is arrived or cancelled'], current: Invitation },
    audit: auditInvitation('invitation.cancelled'),
    handler: async (ctx) => ({
      status: 200,
      body: await cancelInvitation(ctx.db, contextOf(ctx), ctx.params.invitationId),
    }),
  }),
  defineRoute({
    method: 'POST',
    path: '/invitations/:invitationId/resend',
    summary: 'Email the pass to the visitor again',
    description: `Queues the email of the pass (the same pass) to the visitor's email again, sent once; \`passEmail\` follows it. Only an \`expected\` invitation (else 409 INVITATION_CLOSED) with an email (else 409 NO_EMAIL). ${sites}`,
    examples: { response: { ...invitationExample, passEmail: { status: 'pending', at: null, error: null } } },
    tag,
    auth: 'token',
    scope: 'invitations:write',
    params: InvitationIdParams,
    responses: { 200: Invitation },
    conflict: {
      codes: [
        'INVITATION_CLOSED: the invitation is arrived, cancelled or expired',
        'NO_EMAIL: the visitor has no email',
      ],
      current: Invitation,
    },
    audit: auditInvitation('invitation.resent'),
    handler: async (ctx) => ({
      status: 200,
      body: await resendInvitation(ctx.db, contextOf(ctx), ctx.params.invitationId),
    }),
  }),
  defineRoute({
    method: 'GET',
    path: '/invitations/:invitationId/pass',
    summary: 'The pass of an invitation, as text and as a QR code, for integrators who deliver it themselves',
    description: `The pass (\`token\`: JWS compact, EdDSA, the key id in its header; verify it with \`GET /v1/pass-keys\`) and its QR code as a base64 PNG. The pass is a credential: whoever shows it is let in once, so it needs \`invitations:write\`. Only an \`expected\` invitation has one to hand out (else 409 INVITATION_CLOSED). ${sites}`,
    examples: {
      response: {
        invitationId: 42,
        token: passTokenExample,
        qrPng: 'iVBORw0KGgoAAAANSUhEUgAA…',
        validFrom: invitationExample.validFrom,
        validUntil: invitationExample.validUntil,
      },
      current: { ...invitationExample, status: 'cancelled' },
    },
    tag,
    auth: 'token',
    scope: 'invitations:write',
    params: InvitationIdParams,
    responses: { 200: InvitationPass },
    conflict: { codes: ['INVITATION_CLOSED: the invitation is arrived, cancelled or expired'], current: Invitation },
    handler: async (ctx) => {
      const row = await passOf(ctx.db, contextOf(ctx), ctx.params.invitationId);
      const png = await passQrPng(row.pass_token);
      return {
        status: 200,
        body: {
          invitationId: row.id,
          token: row.pass_token,
          qrPng: png.toString('base64'),
          validFrom: row.valid_from.toISOString(),
          validUntil: row.valid_until.toISOString(),
        },
        headers: { 'Cache-Control': 'no-store' },
      };
    },
  }),
  defineRoute({
    method: 'POST',
    path: '/invitations/import',
    summary: 'Import invitations from CSV, creating or updating by site, visitor and expected time',
    description:
      "A `text/csv` body (RFC 4180, UTF-8, at most 64 KiB) whose first line names the columns `site,firstName,lastName,email,phone,company,host,purpose,expectedAt` (any order; `validFrom` and `validUntil` may be added). `site`: a site's name or id; `host`: a host's email, name or id (may be empty); `expectedAt` (and the validity): RFC 3339, or `YYYY-MM-DD HH:MM` on the site's clock. A line matching an expected invitation of the same site, visitor (email, else name) and expected time updates it; otherwise it creates one (and emails the visitor as a create does). Each line is imported whole or not at all; the answer lists each line that was not, with why. A body that is not CSV, or another header, is a 422.",
    examples: { request: invitationCsvExample, response: { created: 1, updated: 0, errors: [] } },
    tag,
    auth: 'token',
    scope: 'invitations:write',
    requestMediaType: 'text/csv',
    body: InvitationImportCsv,
    responses: { 200: InvitationImportResult },
    handler: async (ctx) => ({
      status: 200,
      body: await importInvitations(ctx.db, { ...contextOf(ctx), requestId: ctx.requestId }, ctx.body),
    }),
  }),
  ...passKeyRoutes,
];
