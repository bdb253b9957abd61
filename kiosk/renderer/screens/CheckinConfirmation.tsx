import { useMemo } from 'react';
import type { Kiosk } from '../../src/kiosk';
import type { PersonVisit } from '../../src/data/types';
import { useObservable } from '../hooks/useObservable';
import { seeReception } from '../words';
import { Confirmation, type ConfirmationMessage } from './Confirmation';

/**
 * What a visitor the site refuses sees: at a check-in that is STOP, and, word for word the same, when they
 * try again (nothing then hints that a record of them exists).
 */
export const refusedMessage: ConfirmationMessage = { ...seeReception, tone: 'notice' };

/** The answer to a check-in, by the visit's status: STOP is never a welcome. */
export function checkinMessage(visit: PersonVisit): ConfirmationMessage {
  if (visit.status === 'STOP') return refusedMessage;
  const welcome = { title: 'Welcome', name: visit.person.firstName };
  if (visit.status === 'PENDING')
    return { ...welcome, detail: 'Please take a seat: someone will confirm your visit shortly.', tone: 'notice' };
  return { ...welcome, detail: 'You are checked in. Please check out when you leave.', tone: 'success' };
}

/**
 * The confirmation of a check-in, following the visit as it changes: when the server's answer arrives
 * while it is shown (a STOP the kiosk's watchlist digest did not know yet), the screen says what the server decided.
 */
export function CheckinConfirmation({
  kiosk,
  visit,
  onDone,
}: {
  kiosk: Kiosk;
  visit: PersonVisit;
  onDone: () => void;
}) {
  const source = useMemo(() => kiosk.watchVisit(visit.visitId), [kiosk, visit.visitId]);
  const live = useObservable(source) ?? visit;
  return <Confirmation message={checkinMessage(live)} onDone={onDone} />;
}
