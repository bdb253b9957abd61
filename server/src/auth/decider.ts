import type { Decider } from '../../../shared/src/domain';
import type { Principal } from './principal';

/** The principal as a decider of check-ins: its actor, and whether it is a staff user. */
export const deciderOf = (principal: Principal): Decider => ({
  actor: principal.actor,
  byUser: principal.userId !== null,
});
