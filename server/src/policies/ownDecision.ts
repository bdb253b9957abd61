import type { Principal } from '../auth/principal';

/**
 * A staff user who may approve at the site decides their own manual check-in as they make it
 * (docs/api.md, Who decided): it is IN at once, not left waiting for someone else's approval. Tokens (kiosks,
 * integrators) never do: their check-ins wait for a person. The site is one the user may view (the route
 * resolved it with them), so the scope is the whole question.
 */
export const decidesOwnCheckin = (principal: Principal): boolean =>
  principal.userId !== null && principal.scopes.has('checkins:approve');
