import type { Observable } from '../data/observe';
import type { FetchLike } from '../platform/platform';

/**
 * Whether the server has stopped accepting this kiosk's token (revoked, or the kiosk paired on another
 * device). Learnt from any 401 of the API, whatever asked (sync, pull, heartbeat, a form's fields): from
 * then on the kiosk sends nothing with that token, and the screen asks for a new pairing.
 */
export interface Revocation {
  isRevoked: () => boolean;
  /** The state now and on every change. */
  revoked: Observable<boolean>;
  /** `fetch` that notices the API's 401 (problem+json: a proxy's 401 page is not the server speaking). */
  watch: (fetch: FetchLike) => FetchLike;
}

const isApiJson = (contentType: string | null) =>
  contentType !== null && /^application\/([\w.+-]+\+)?json\s*(;|$)/i.test(contentType);

export function createRevocation(): Revocation {
  let revoked = false;
  const listeners = new Set<(revoked: boolean) => void>();
  const revoke = () => {
    if (revoked) return;
    revoked = true;
    for (const listener of listeners) listener(true);
  };
  return {
    isRevoked: () => revoked,
    revoked: {
      subscribe(listener) {
        listeners.add(listener);
        listener(revoked);
        return () => listeners.delete(listener);
      },
    },
    watch: (fetch) => async (url, init) => {
      const response = await fetch(url, init);
      if (response.status === 401 && isApiJson(response.headers.get('Content-Type'))) revoke();
      return response;
    },
  };
}
