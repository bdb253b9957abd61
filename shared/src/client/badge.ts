import { Problem } from '../schemas/common';
import { type FetchLike, NOT_THE_SERVER } from './http';
import { apiBaseUrl } from './index';

/** What became of asking for a visit's badge (docs/api.md, Badges). */
export type BadgeAnswer =
  | { kind: 'pdf'; pdf: Uint8Array }
  /** The server gives no badge: badges are off, or the visit is not (or no longer) admitted. */
  | { kind: 'refused'; status: number; problem: Problem | null }
  | { kind: 'unreachable'; message: string };

/**
 * The badge PDF of a check-in. With a token (a kiosk), or without one in a browser signed in with the
 * session cookie (the console). Not through `send`: the answer is a PDF, not JSON.
 */
export async function fetchBadgePdf(
  options: { baseUrl: string; token?: string; fetch: FetchLike; timeoutMs?: number },
  visit: { siteId: number; checkinId: number },
): Promise<BadgeAnswer> {
  const path = `/v1/sites/${visit.siteId}/checkins/people/${visit.checkinId}/badge.pdf`;
  try {
    const response = await options.fetch(`${apiBaseUrl(options.baseUrl)}${path}`, {
      method: 'GET',
      headers: options.token === undefined ? {} : { Authorization: `Bearer ${options.token}` },
      signal: AbortSignal.timeout(options.timeoutMs ?? 30_000),
    });
    const type = response.headers.get('Content-Type') ?? '';
    if (response.ok) {
      if (!type.startsWith('application/pdf')) return { kind: 'unreachable', message: NOT_THE_SERVER };
      return { kind: 'pdf', pdf: new Uint8Array(await response.arrayBuffer()) };
    }
    const problem = Problem.safeParse(await response.json().catch(() => null));
    return { kind: 'refused', status: response.status, problem: problem.success ? problem.data : null };
  } catch (error) {
    return { kind: 'unreachable', message: error instanceof Error ? error.message : String(error) };
  }
}
