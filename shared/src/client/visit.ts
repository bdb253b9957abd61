import { VisitCheckin, type VisitCheckinRequest, VisitSite } from '../schemas/visit';
import { type HttpOutcome, type HttpTransport, send } from './http';

export type VisitAction = 'breaks/start' | 'breaks/end' | 'checkout';

/**
 * The visitor's phone's calls (docs/api.md, The visitor's phone): the page of a visit code, and the one
 * visit the phone's key opens. The key goes in the Authorization header only, never in a URL.
 */
export function createVisitClient(transport: HttpTransport, code: string) {
  const base = `/v1/visit/${encodeURIComponent(code)}`;
  const withKey = (key: string) => ({ Authorization: `Visit ${key}` });
  return {
    site: (): Promise<HttpOutcome<VisitSite>> => send(transport, { method: 'GET', path: base }, VisitSite),
    checkIn: (body: VisitCheckinRequest, key: string, idempotencyKey: string): Promise<HttpOutcome<VisitCheckin>> =>
      send(
        transport,
        { method: 'POST', path: `${base}/checkins`, body, idempotencyKey, headers: withKey(key) },
        VisitCheckin,
      ),
    read: (checkinId: number, key: string): Promise<HttpOutcome<VisitCheckin>> =>
      send(transport, { method: 'GET', path: `${base}/checkins/${checkinId}`, headers: withKey(key) }, VisitCheckin),
    act: (checkinId: number, action: VisitAction, key: string, idempotencyKey: string) =>
      send(
        transport,
        {
          method: 'POST',
          path: `${base}/checkins/${checkinId}/${action}`,
          body: {},
          idempotencyKey,
          headers: withKey(key),
        },
        VisitCheckin,
      ),
  };
}
export type VisitClient = ReturnType<typeof createVisitClient>;

/** A 409's `current`: the visit as it is now (the phone shows it rather than the refusal). */
export const currentVisitOf = (problem: { current?: unknown } | null): VisitCheckin | undefined => {
  const parsed = VisitCheckin.safeParse(problem?.current);
  return parsed.success ? parsed.data : undefined;
};
