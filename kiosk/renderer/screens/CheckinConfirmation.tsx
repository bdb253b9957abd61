import { useMemo } from 'react';
import type { Kiosk } from '../../src/kiosk';
import type { PersonVisit } from '../../src/data/types';
import { useObservable } from '../hooks/useObservable';
import { type KioskWords, useWords } from '../language/VisitorLanguage';
import { namedTitle } from '../language/namedTitle';
import { Confirmation, type ConfirmationMessage } from './Confirmation';

/**
 * What a visitor the site refuses sees: at a check-in that is STOP, and, word for word the same, when they
 * try again (nothing then hints that a record of them exists). Never a welcome, never "checked in", and
 * nothing that sounds like an accusation; reception knows why.
 */
export const refusedMessage = (words: KioskWords): ConfirmationMessage => ({
  title: words.t('done.seeReception'),
  detail: words.t('done.seeReceptionDetail'),
  tone: 'notice',
});

/** The answer to a check-in, by the visit's status: STOP is never a welcome. */
export function checkinMessage(words: KioskWords, visit: PersonVisit): ConfirmationMessage {
  if (visit.status === 'STOP') return refusedMessage(words);
  const title = namedTitle(words, 'done.welcome', visit.person.firstName);
  if (visit.status === 'PENDING') return { title, detail: words.t('done.waiting'), tone: 'notice' };
  return { title, detail: words.t('done.checkedIn'), tone: 'success' };
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
  return <Confirmation message={checkinMessage(useWords(), live)} onDone={onDone} />;
}
