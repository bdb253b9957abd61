import { createApiClient } from '../shared/src/client';
import { createAdministrationClient } from '../shared/src/client/administration';
import { createManageClient } from '../shared/src/client/manage';
import { createStaffClient } from '../shared/src/client/staff';
import { createHostsClient } from '../shared/src/client/hosts';
import { createInvitationsClient } from '../shared/src/client/invitations';

// Same origin as the API, signed in by the session cookie: no token in the page, the browser sends the cookie.
// Always asked of the server (a kiosk may keep a form 5 minutes; the editor must see the one saved now).
export const sameOriginFetch = (url: string, init: RequestInit) =>
  fetch(url, { ...init, credentials: 'same-origin', cache: 'no-cache' });
const options = { baseUrl: window.location.origin, fetch: sameOriginFetch, now: () => Date.now() };

export const api = createApiClient(options);
export const staffApi = createStaffClient(options);
/** Sites and their forms, kiosks and API tokens (the administration pages). */
export const adminApi = createAdministrationClient(options);
export const manageApi = createManageClient(options);

/** A fresh Idempotency-Key for one write (a retry of the same write reuses it). */
export const newKey = (): string => crypto.randomUUID();
/** Hosts, what they were told, and the host decision page. */
export const hostsApi = createHostsClient(options);
/** Expected visitors and their passes (the Expected page). */
export const invitationsApi = createInvitationsClient(options);
