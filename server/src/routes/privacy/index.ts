import { erasureIdentifiers } from '../../../../shared/src/domain/privacy';
import { ErasureRequest, ErasureResult, RetentionSettings } from '../../../../shared/src/schemas/privacy';
import type { Principal } from '../../auth/principal';
import { readRetention, setRetention } from '../../commands/retentionSettings';
import { erasureHash, eraseVisitor } from '../../commands/visitorErasure';
import { requireEverySite } from '../../policies/everySite';
import { defineRoute } from '../define';

const tag = 'Privacy';

const accountTarget = (principal: Principal) => ({ type: 'account', id: principal.accountId });

export const privacyRoutes = [
  defineRoute({
    method: 'GET',
    path: '/account/retention',
    summary: "How long visitors' personal data is kept",
    description:
      "The account's retention: `personDataDays` after a visit ended (or began, if it never ended) its person data is anonymized; `null`: kept until erased.",
    examples: { response: { personDataDays: 90 } },
    tag,
    auth: 'token',
    scope: 'privacy:manage',
    responses: { 200: RetentionSettings },
    handler: async ({ db, principal }) => ({ status: 200, body: await readRetention(db, principal.accountId) }),
  }),
  defineRoute({
    method: 'PUT',
    path: '/account/retention',
    summary: "Set how long visitors' personal data is kept (1 to 3650 days, or null)",
    description:
      'Sets the retention: a background job (hourly by default) anonymizes person check-ins whose exit, or entry if they never left, is older than `personDataDays`: names become "Deleted"; email, phone, company, host, purpose and custom fields are cleared, in webhook event copies too. Times, site, status, sources, breaks and labels stay, so counts survive. `null` keeps data until erased. Needs access to every site (else 403).',
    examples: { request: { personDataDays: 90 }, response: { personDataDays: 90 } },
    tag,
    auth: 'token',
    scope: 'privacy:manage',
    body: RetentionSettings,
    responses: { 200: RetentionSettings },
    audit: (ctx) => ({ action: 'account.retention', target: accountTarget(ctx.principal), siteId: null }),
    handler: async ({ db, principal, body }) => {
      requireEverySite(principal, 'Setting the retention');
      return { status: 200, body: await setRetention(db, { accountId: principal.accountId, settings: body }) };
    },
  }),
  defineRoute({
    method: 'POST',
    path: '/privacy/erasure',
    summary: 'Anonymize at once every check-in of a person, on every site',
    description:
      'Anonymizes every person check-in of the account, on every site, that matches any identifier given, as the watchlist matches (email case-insensitive, phone by its digits, full name case-insensitive), with their copies in webhook events; `anonymized` counts them. The watchlist is not changed. The audit log keeps a SHA-256 of the normalized identifiers (`detail.identifiersHash`), never the identifiers. Needs access to every site (else 403).',
    examples: { request: { email: 'ada@example.com' }, response: { anonymized: 3 } },
    tag,
    auth: 'token',
    scope: 'privacy:manage',
    body: ErasureRequest,
    responses: { 200: ErasureResult },
    audit: (ctx) => ({
      action: 'privacy.erasure',
      target: accountTarget(ctx.principal),
      siteId: null,
      detail: { identifiersHash: erasureHash(erasureIdentifiers(ctx.body)) },
    }),
    handler: async ({ db, principal, body, now }) => {
      requireEverySite(principal, 'An erasure');
      return {
        status: 200,
        body: await eraseVisitor(db, { accountId: principal.accountId, identifiers: erasureIdentifiers(body), now }),
      };
    },
  }),
];
