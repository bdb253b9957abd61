import { z } from 'zod';
import { type FetchLike, type HttpTransport, send } from './http';
import { AlertAnswer, AlertPage, SessionAnswer, SessionLinkAnswer } from './staffAnswers';
import { apiBaseUrl } from './index';

export * from './staffAnswers';

const Nothing = z.null();

export interface StaffClientOptions {
  baseUrl: string;
  /** The browser's fetch, sending the session cookie (`credentials: 'same-origin'`). */
  fetch: FetchLike;
  now: () => number;
  timeoutMs?: number;
}

/** Sign-in, one-time links and alerts: the staff endpoints a console calls with its session cookie. */
export function createStaffClient(options: StaffClientOptions) {
  const transport: HttpTransport = {
    baseUrl: apiBaseUrl(options.baseUrl),
    fetch: options.fetch,
    now: options.now,
    timeoutMs: options.timeoutMs ?? 15_000,
  };
  return {
    getSession: () => send(transport, { method: 'GET', path: '/v1/session' }, SessionAnswer),
    signIn: (email: string, password: string) =>
      send(transport, { method: 'POST', path: '/v1/session', body: { email, password } }, SessionAnswer),
    signOut: () => send(transport, { method: 'DELETE', path: '/v1/session' }, Nothing),
    getLink: (code: string) =>
      send(transport, { method: 'GET', path: `/v1/session/links/${encodeURIComponent(code)}` }, SessionLinkAnswer),
    setup: (body: { code: string; name: string; email: string; password: string }) =>
      send(transport, { method: 'POST', path: '/v1/session/setup', body }, SessionAnswer),
    redeemInvitation: (body: { code: string; name?: string; password: string }) =>
      send(transport, { method: 'POST', path: '/v1/session/invitation', body }, SessionAnswer),
    listAlerts: (siteIds?: readonly number[]) => {
      const query = siteIds?.length ? `?siteIds=${siteIds.join(',')}&limit=200` : '?limit=200';
      return send(transport, { method: 'GET', path: `/v1/alerts${query}` }, AlertPage);
    },
    acknowledgeAlert: (kind: string, checkinId: number, key: string) =>
      send(
        transport,
        {
          method: 'POST',
          path: `/v1/alerts/${encodeURIComponent(kind)}/${checkinId}/acknowledge`,
          body: {},
          idempotencyKey: key,
        },
        AlertAnswer,
      ),
  };
}

export type StaffClient = ReturnType<typeof createStaffClient>;
