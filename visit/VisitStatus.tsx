import { useEffect, useRef } from 'react';
import type { VisitAction } from '../shared/src/client/visit';
import type { VisitCheckin } from '../shared/src/schemas/visit';
import { clockTime } from '../shared/src/messages/times';
import { pageLanguage, words } from './words';

interface Props {
  visit: VisitCheckin;
  busy: boolean;
  message: string | undefined;
  onAction: (action: VisitAction) => void;
  onNewCheckin: () => void;
}

const time = (iso: string) => clockTime(pageLanguage.locale, iso);

/** The heading of each state, focused when it changes so a screen reader says what happened. */
function headingOf(visit: VisitCheckin): string {
  switch (visit.status) {
    case 'STOP':
      return words.seeReception;
    case 'PENDING':
      return words.waitingTitle;
    case 'ON_BREAK':
      return words.onBreakTitle;
    case 'OUT':
      return words.checkedOutTitle;
    default:
      return words.welcome(visit.firstName);
  }
}

/**
 * The visit as the phone shows it: the confirmation to show at reception, its break and checkout buttons;
 * a STOP says only Please see reception (nothing of the record, no button), a PENDING one that someone
 * will confirm.
 */
export function VisitStatus({ visit, busy, message, onAction, onNewCheckin }: Props) {
  const heading = useRef<HTMLHeadingElement>(null);
  const title = headingOf(visit);
  useEffect(() => heading.current?.focus(), [title]);
  const openBreak = visit.breaks.find((item) => item.endedAt === null);
  const button = (action: VisitAction, text: string, kind = 'secondary') => (
    <button type="button" className={kind} aria-disabled={busy} onClick={() => !busy && onAction(action)}>
      {busy ? words.working : text}
    </button>
  );
  return (
    <section className={`status status-${visit.status.toLowerCase()}`} aria-labelledby="status-heading">
      <h2 id="status-heading" ref={heading} tabIndex={-1}>
        {title}
      </h2>
      {visit.status === 'STOP' ? null : (
        <>
          {visit.status === 'PENDING' ? <p>{words.waiting}</p> : null}
          {visit.status === 'IN' || visit.status === 'ON_BREAK' ? (
            <div className="pass">
              <p className="who">
                {visit.firstName} {visit.lastName}
              </p>
              {visit.hostName ? <p>{words.host(visit.hostName)}</p> : null}
              <p>{words.signedInAt(visit.siteName, time(visit.entry.at))}</p>
              {openBreak ? <p>{words.onBreakSince(time(openBreak.startedAt))}</p> : null}
              <p className="hint">{words.showReception}</p>
            </div>
          ) : null}
          {visit.status === 'OUT' && visit.exit ? <p>{words.checkedOut(time(visit.exit.at))}</p> : null}
          {message ? (
            <p className="notice" role="alert">
              {message}
            </p>
          ) : null}
          <div className="actions">
            {visit.status === 'IN' ? button('breaks/start', words.takeBreak) : null}
            {visit.status === 'ON_BREAK' ? button('breaks/end', words.endBreak, 'primary') : null}
            {visit.status === 'IN' || visit.status === 'ON_BREAK' ? button('checkout', words.checkOut) : null}
            {visit.status === 'OUT' ? (
              <button type="button" className="secondary" onClick={onNewCheckin}>
                {words.newCheckIn}
              </button>
            ) : null}
          </div>
        </>
      )}
    </section>
  );
}
