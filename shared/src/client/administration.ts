import { z } from 'zod';
import type { Channel } from '../schemas/common';
import type { CreateKioskRequest, HeartbeatRequest } from '../schemas/kiosks';
import type { CheckinConfigUpdate, CreateSiteBody, UpdateSiteRequest } from '../schemas/sites';
import type { CreateApiTokenRequest } from '../schemas/tokens';
import {
  CreatedKioskAnswer,
  CreatedTokenAnswer,
  KioskAnswerPage,
  PairedKioskAnswer,
  PairingCodeAnswer,
  SiteAnswer,
  SiteAnswerPage,
  TokenAnswerPage,
} from './adminAnswers';
import { CheckinConfigAnswer } from './answers';
import { type FetchLike, type HttpOutcome, type HttpTransport, send } from './http';
import { apiBaseUrl } from './index';

export * from './adminAnswers';

const Nothing = z.null();

export interface AdministrationClientOptions {
  baseUrl: string;
  /** A bearer token; left out by the console, whose fetch sends the session cookie. */
  token?: string;
  fetch: FetchLike;
  now: () => number;
  timeoutMs?: number;
}

function pagePath(base: string, query: Record<string, string | number | boolean | undefined>): string {
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(query)) if (value !== undefined) params.set(name, String(value));
  const search = params.toString();
  return search === '' ? base : `${base}?${search}`;
}

const transportOf = (options: AdministrationClientOptions): HttpTransport => ({
  baseUrl: apiBaseUrl(options.baseUrl),
  token: options.token,
  fetch: options.fetch,
  now: options.now,
  timeoutMs: options.timeoutMs ?? 15_000,
});

/** Sites, their forms, API tokens and kiosks: what the console's administration pages call (docs/api.md). */
export function createAdministrationClient(options: AdministrationClientOptions) {
  const transport = transportOf(options);
  return {
    listSites: (
      query: { archived?: boolean; limit?: number; cursor?: string } = {},
    ): Promise<HttpOutcome<SiteAnswerPage>> =>
      send(transport, { method: 'GET', path: pagePath('/v1/sites', { limit: 200, ...query }) }, SiteAnswerPage),
    createSite: (body: CreateSiteBody, key?: string) =>
      send(transport, { method: 'POST', path: '/v1/sites', body, idempotencyKey: key }, SiteAnswer),
    updateSite: (siteId: number, body: UpdateSiteRequest, key?: string) =>
      send(transport, { method: 'PATCH', path: `/v1/sites/${siteId}`, body, idempotencyKey: key }, SiteAnswer),
    /** A new visit code for the site's QR poster: the old one stops working at once. */
    rotateVisitCode: (siteId: number, key?: string) =>
      send(
        transport,
        { method: 'POST', path: `/v1/sites/${siteId}/visit-code`, body: {}, idempotencyKey: key },
        SiteAnswer,
      ),
    /** The form and its ETag (`outcome.headers.get('ETag')`), to send back with `putCheckinConfig`. */
    getCheckinConfig: (siteId: number) =>
      send(transport, { method: 'GET', path: `/v1/sites/${siteId}/checkins/people/config` }, CheckinConfigAnswer),
    /** With `etag`: refused 412 PRECONDITION_FAILED (problem `current` = the current form) when someone changed it meanwhile. */
    putCheckinConfig: (siteId: number, body: CheckinConfigUpdate, etag?: string, key?: string) =>
      send(
        transport,
        {
          method: 'PUT',
          path: `/v1/sites/${siteId}/checkins/people/config`,
          body,
          idempotencyKey: key,
          headers: etag ? { 'If-Match': etag } : {},
        },
        CheckinConfigAnswer,
      ),

    listTokens: (
      query: { channel?: Channel; limit?: number; cursor?: string } = {},
    ): Promise<HttpOutcome<TokenAnswerPage>> =>
      send(transport, { method: 'GET', path: pagePath('/v1/tokens', { limit: 200, ...query }) }, TokenAnswerPage),
    createToken: (body: CreateApiTokenRequest, key?: string) =>
      send(transport, { method: 'POST', path: '/v1/tokens', body, idempotencyKey: key }, CreatedTokenAnswer),
    revokeToken: (tokenId: number) => send(transport, { method: 'DELETE', path: `/v1/tokens/${tokenId}` }, Nothing),

    listKiosks: (
      query: { siteIds?: readonly number[]; limit?: number; cursor?: string } = {},
    ): Promise<HttpOutcome<KioskAnswerPage>> =>
      send(
        transport,
        {
          method: 'GET',
          path: pagePath('/v1/kiosks', {
            limit: query.limit ?? 200,
            cursor: query.cursor,
            siteIds: query.siteIds?.length ? query.siteIds.join(',') : undefined,
          }),
        },
        KioskAnswerPage,
      ),
    createKiosk: (body: CreateKioskRequest, key?: string) =>
      send(transport, { method: 'POST', path: '/v1/kiosks', body, idempotencyKey: key }, CreatedKioskAnswer),
    newPairingCode: (kioskId: number, key?: string) =>
      send(
        transport,
        { method: 'POST', path: `/v1/kiosks/${kioskId}/pairing-code`, idempotencyKey: key },
        PairingCodeAnswer,
      ),
    revokeKiosk: (kioskId: number) => send(transport, { method: 'DELETE', path: `/v1/kiosks/${kioskId}` }, Nothing),
  };
}

export type AdministrationClient = ReturnType<typeof createAdministrationClient>;

/**
 * The kiosk's own calls: pairing (no token; `baseUrl` is the server address typed or scanned) and the
 * heartbeat (the kiosk's token). A 404 to the heartbeat: the token is not a paired kiosk's.
 */
export function createKioskLinkClient(options: AdministrationClientOptions) {
  const transport = transportOf(options);
  return {
    pair: (code: string) =>
      send(transport, { method: 'POST', path: '/v1/kiosk/pair', body: { code } }, PairedKioskAnswer),
    heartbeat: (body: HeartbeatRequest) =>
      send(transport, { method: 'POST', path: '/v1/kiosk/heartbeat', body }, Nothing),
  };
}

export type KioskLinkClient = ReturnType<typeof createKioskLinkClient>;
