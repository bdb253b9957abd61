import { z } from 'zod';
import { type CreateInvitationRequest, Invitation } from '../schemas/invitations';
import { type FetchLike, type HttpTransport, send } from './http';
import { apiBaseUrl } from './index';

const InvitationPage = z.object({ data: z.array(Invitation), nextCursor: z.string().nullable() });
export type InvitationAnswer = Invitation;

export interface InvitationsClientOptions {
  baseUrl: string;
  fetch: FetchLike;
  now: () => number;
  timeoutMs?: number;
}

/** Invitations through the public API, as the console's Expected page uses them (docs/invitations.md). */
export function createInvitationsClient(options: InvitationsClientOptions) {
  const transport: HttpTransport = {
    baseUrl: apiBaseUrl(options.baseUrl),
    fetch: options.fetch,
    now: options.now,
    timeoutMs: options.timeoutMs ?? 15_000,
  };
  return {
    /** Those expected from `from` up to `to` (instants), of the caller's sites unless `siteIds` says which. */
    list: (query: { from: string; to: string; siteIds?: readonly number[]; cursor?: string }) => {
      const params = new URLSearchParams({ from: query.from, to: query.to, limit: '200' });
      if (query.siteIds && query.siteIds.length > 0) params.set('siteIds', query.siteIds.join(','));
      if (query.cursor) params.set('cursor', query.cursor);
      return send(transport, { method: 'GET', path: `/v1/invitations?${params}` }, InvitationPage);
    },
    /** One invitation, as it is now (the console reads the one an `invitation` event names). */
    get: (invitationId: number) =>
      send(transport, { method: 'GET', path: `/v1/invitations/${invitationId}` }, Invitation),
    create: (body: CreateInvitationRequest, key: string) =>
      send(transport, { method: 'POST', path: '/v1/invitations', body, idempotencyKey: key }, Invitation),
    cancel: (invitationId: number, key: string) =>
      send(
        transport,
        { method: 'POST', path: `/v1/invitations/${invitationId}/cancel`, idempotencyKey: key },
        Invitation,
      ),
    resend: (invitationId: number, key: string) =>
      send(
        transport,
        { method: 'POST', path: `/v1/invitations/${invitationId}/resend`, idempotencyKey: key },
        Invitation,
      ),
  };
}
