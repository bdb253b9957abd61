import { randomBytes, randomUUID } from 'node:crypto';
import type { Site } from '../../shared/src/schemas/sites';
import type { VisitCheckin } from '../../shared/src/schemas/visit';
import { type ApiClient, type ApiResponse, apiClient } from './http';

/** A visitor's phone as the /visit page is one: its own visit key, an Idempotency-Key per request. */
export interface Phone {
  key: string;
  api: ApiClient;
  checkIn: (code: string, body: unknown, idempotencyKey?: string) => Promise<ApiResponse<VisitCheckin>>;
  read: (code: string, checkinId: number) => Promise<ApiResponse<VisitCheckin>>;
  act: (
    code: string,
    checkinId: number,
    verb: 'breaks/start' | 'breaks/end' | 'checkout',
  ) => Promise<ApiResponse<VisitCheckin>>;
}

/** A new visit key: 256 random bits, base64url (43 characters), as the page makes it. */
export const newVisitKey = () => randomBytes(32).toString('base64url');

export function phone(baseUrl: string, headers: Record<string, string> = {}, key = newVisitKey()): Phone {
  const api = apiClient(baseUrl, undefined, { Authorization: `Visit ${key}`, ...headers });
  return {
    key,
    api,
    checkIn: (code, body, idempotencyKey = randomUUID()) =>
      api.post<VisitCheckin>(`/v1/visit/${code}/checkins`, body, { idempotencyKey }),
    read: (code, checkinId) => api.get<VisitCheckin>(`/v1/visit/${code}/checkins/${checkinId}`),
    act: (code, checkinId, verb) =>
      api.post<VisitCheckin>(`/v1/visit/${code}/checkins/${checkinId}/${verb}`, undefined, {
        idempotencyKey: randomUUID(),
      }),
  };
}

/** The visit code of a site, read with a token that may view it. */
export async function visitCodeOf(api: ApiClient, siteId: number): Promise<string> {
  const site = await api.get<Site>(`/v1/sites/${siteId}`);
  if (site.status !== 200) throw new Error(`site ${siteId}: ${site.status}`);
  return site.body.visit.code;
}
