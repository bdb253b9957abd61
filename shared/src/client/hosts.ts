import { z } from 'zod';
import type { CreateHostRequest, UpdateHostRequest } from '../schemas/hosts';
import type { HostDecisionRequest } from '../schemas/notifications';
import { type FetchLike, type HttpTransport, send } from './http';
import { apiBaseUrl } from './index';
import {
  ChannelsAnswer,
  HostAnswer,
  HostDecisionAnswer,
  HostDecisionPreviewAnswer,
  HostImportAnswer,
  KioskHostsAnswer,
  NotificationAnswer,
} from './hostAnswers';

export * from './hostAnswers';

const Nothing = z.null();
const pageOf = <T extends z.ZodType>(item: T) => z.object({ data: z.array(item), nextCursor: z.string().nullable() });

export interface HostsClientOptions {
  baseUrl: string;
  token?: string;
  fetch: FetchLike;
  now: () => number;
  timeoutMs?: number;
}

/** Hosts, notifications and host decisions through the public API (the console with its cookie; kiosks with a token). */
export function createHostsClient(options: HostsClientOptions) {
  const transport: HttpTransport = {
    baseUrl: apiBaseUrl(options.baseUrl),
    token: options.token,
    fetch: options.fetch,
    now: options.now,
    timeoutMs: options.timeoutMs ?? 15_000,
  };
  const query = (values: Record<string, string | number | undefined>) => {
    const params = new URLSearchParams();
    for (const [name, value] of Object.entries(values))
      if (value !== undefined && value !== '') params.set(name, String(value));
    const text = params.toString();
    return text === '' ? '' : `?${text}`;
  };
  return {
    listHosts: (page: { limit?: number; cursor?: string; q?: string }) =>
      send(transport, { method: 'GET', path: `/v1/hosts${query(page)}` }, pageOf(HostAnswer)),
    createHost: (body: CreateHostRequest, key: string) =>
      send(transport, { method: 'POST', path: '/v1/hosts', body, idempotencyKey: key }, HostAnswer),
    updateHost: (hostId: number, body: UpdateHostRequest, key: string) =>
      send(transport, { method: 'PATCH', path: `/v1/hosts/${hostId}`, body, idempotencyKey: key }, HostAnswer),
    deleteHost: (hostId: number, key: string) =>
      send(transport, { method: 'DELETE', path: `/v1/hosts/${hostId}`, idempotencyKey: key }, Nothing),
    importHosts: (csv: string, key: string) =>
      send(
        transport,
        {
          method: 'POST',
          path: '/v1/hosts/import',
          text: { content: csv, contentType: 'text/csv' },
          idempotencyKey: key,
        },
        HostImportAnswer,
      ),
    /** A site's hosts as a kiosk offers them; conditional when `etag` is given. */
    kioskHosts: (siteId: number, etag?: string) =>
      send(
        transport,
        { method: 'GET', path: `/v1/sites/${siteId}/kiosk/hosts`, headers: etag ? { 'If-None-Match': etag } : {} },
        KioskHostsAnswer,
      ),
    /** The notifications of these check-ins (at most 100 ids). */
    notificationsOf: (checkinIds: readonly number[]) =>
      send(
        transport,
        { method: 'GET', path: `/v1/notifications${query({ checkinId: checkinIds.join(','), limit: 200 })}` },
        pageOf(NotificationAnswer),
      ),
    channels: () => send(transport, { method: 'GET', path: '/v1/notifications/channels' }, ChannelsAnswer),
    previewDecision: (token: string) =>
      send(
        transport,
        { method: 'POST', path: '/v1/host-decisions/preview', body: { token } },
        HostDecisionPreviewAnswer,
      ),
    decide: (body: HostDecisionRequest) =>
      send(transport, { method: 'POST', path: '/v1/host-decisions', body }, HostDecisionAnswer),
  };
}

export type HostsClient = ReturnType<typeof createHostsClient>;
