import { applyRule, type Transition, type TransitionRule } from './transition';

/** Every status a person check-in can have (docs/api.md, States and transitions). */
export const personStatuses = ['IN', 'ON_BREAK', 'PENDING', 'STOP', 'OUT'] as const;
/** The status of a person check-in. */
export type PersonStatus = (typeof personStatuses)[number];

/** What the transition needs to know about a person check-in. */
export interface PersonCheckinState {
  status: PersonStatus;
  lastEventAt: Date;
}

/** A request that changes a person check-in; `occurredAt` is the claimed time (an offline kiosk's clock). */
export type PersonEvent =
  | { type: 'BREAK_START'; occurredAt?: Date }
  | { type: 'BREAK_END'; occurredAt?: Date }
  | { type: 'CHECKOUT'; occurredAt?: Date }
  | { type: 'APPROVE'; occurredAt?: Date }
  | { type: 'DENY'; occurredAt?: Date };

/** The webhook event kinds a person check-in emits (docs/webhooks.md, Event kinds). */
export type PersonWebhookEvent =
  | 'PERSON_CHECKIN_ENTERED'
  | 'PERSON_CHECKIN_EXITED'
  | 'PERSON_CHECKIN_PENDING'
  | 'PERSON_CHECKIN_STOPPED'
  | 'PERSON_BREAK_STARTED'
  | 'PERSON_BREAK_ENDED';

/** What the caller must do to persist an accepted transition, in order. */
export type PersonEffect =
  | { type: 'OPEN_BREAK'; at: Date }
  | { type: 'CLOSE_BREAK'; at: Date }
  | { type: 'SET_EXIT'; at: Date }
  | { type: 'EMIT'; event: PersonWebhookEvent };

type PersonEventType = PersonEvent['type'];
type Rule = TransitionRule<PersonStatus, PersonEffect>;

const personEventTypes: readonly PersonEventType[] = ['BREAK_START', 'BREAK_END', 'CHECKOUT', 'APPROVE', 'DENY'];

const emit = (event: PersonWebhookEvent): PersonEffect => ({ type: 'EMIT', event });
const closed: Rule = { reject: 'CHECKIN_CLOSED' };
const notAdmitted: Rule = { reject: 'CHECKIN_NOT_ADMITTED' };
const notPending: Rule = { reject: 'NOT_PENDING' };
const checkout: Rule = {
  to: 'OUT',
  effects: (at) => [{ type: 'SET_EXIT', at }, emit('PERSON_CHECKIN_EXITED')],
};

const personTable: Record<PersonEventType, Record<PersonStatus, Rule>> = {
  BREAK_START: {
    IN: { to: 'ON_BREAK', effects: (at) => [{ type: 'OPEN_BREAK', at }, emit('PERSON_BREAK_STARTED')] },
    ON_BREAK: { reject: 'BREAK_ALREADY_OPEN' },
    PENDING: notAdmitted,
    STOP: notAdmitted,
    OUT: closed,
  },
  BREAK_END: {
    IN: { reject: 'NO_OPEN_BREAK' },
    ON_BREAK: { to: 'IN', effects: (at) => [{ type: 'CLOSE_BREAK', at }, emit('PERSON_BREAK_ENDED')] },
    PENDING: notAdmitted,
    STOP: notAdmitted,
    OUT: closed,
  },
  CHECKOUT: {
    IN: checkout,
    // The open break is closed in the same transaction as the checkout, at the same instant.
    ON_BREAK: {
      to: 'OUT',
      effects: (at) => [{ type: 'CLOSE_BREAK', at }, { type: 'SET_EXIT', at }, emit('PERSON_CHECKIN_EXITED')],
    },
    PENDING: checkout,
    STOP: checkout,
    OUT: closed,
  },
  APPROVE: {
    IN: notPending,
    ON_BREAK: notPending,
    PENDING: { to: 'IN', effects: () => [emit('PERSON_CHECKIN_ENTERED')] },
    STOP: notPending,
    OUT: notPending,
  },
  DENY: {
    IN: notPending,
    ON_BREAK: notPending,
    PENDING: { to: 'STOP', effects: () => [emit('PERSON_CHECKIN_STOPPED')] },
    STOP: notPending,
    OUT: notPending,
  },
};

const statusEvents: Record<PersonStatus, PersonWebhookEvent | null> = {
  IN: 'PERSON_CHECKIN_ENTERED',
  ON_BREAK: null,
  PENDING: 'PERSON_CHECKIN_PENDING',
  STOP: 'PERSON_CHECKIN_STOPPED',
  OUT: 'PERSON_CHECKIN_EXITED',
};

/** Status of a new check-in: STOP if watchlisted, else PENDING if the site requires approval, else IN. */
export function initialPersonStatus(input: { watchlisted: boolean; requiresApproval: boolean }): PersonStatus {
  if (input.watchlisted) return 'STOP';
  return input.requiresApproval ? 'PENDING' : 'IN';
}

/** The webhook event kind that entering a status emits (IN→ENTERED, OUT→EXITED, PENDING→PENDING, STOP→STOPPED; ON_BREAK→null). */
export function personStatusEvent(status: PersonStatus): PersonWebhookEvent | null {
  return statusEvents[status];
}

/** Decides one event on a person check-in: the next state and effects, or a typed rejection. Pure. */
export function transitionPerson(
  state: PersonCheckinState,
  event: PersonEvent,
  now: Date,
): Transition<PersonCheckinState, PersonEffect> {
  return applyRule(personTable[event.type][state.status], state.lastEventAt, event.occurredAt, now);
}

/** The events a check-in in this status accepts (the kiosk's buttons), derived from the transition itself. */
export function allowedPersonActions(status: PersonStatus): PersonEventType[] {
  const at = new Date(0);
  return personEventTypes.filter((type) => transitionPerson({ status, lastEventAt: at }, { type }, at).ok);
}
