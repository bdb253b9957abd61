import { useEffect, useRef, useState } from 'react';
import { isKnown } from '../../../shared/src/client/answers';
import { allowedPersonActions, personStatuses } from '../../../shared/src/domain';
import type { Kiosk } from '../../src/kiosk';
import type { PersonVisit } from '../../src/data/types';
import { StatusBadge } from '../components/StatusBadge';
import { useObservable } from '../hooks/useObservable';
import { personStatusText, plainReason, shortTime } from '../words';
import type { ConfirmationMessage } from './Confirmation';

type PersonAction = 'BREAK_START' | 'BREAK_END' | 'CHECKOUT';

const actionLabels: Record<PersonAction, string> = { BREAK_START: 'Start break', BREAK_END: 'End break', CHECKOUT: 'Check out' };
const actionOrder: PersonAction[] = ['BREAK_START', 'BREAK_END', 'CHECKOUT'];

function confirmationFor(action: PersonAction, visit: PersonVisit): ConfirmationMessage {
  const name = visit.person.firstName;
  if (action === 'BREAK_START') return { title: `Enjoy your break, ${name}`, detail: 'Choose Break and End break when you are back.', tone: 'success' };
  if (action === 'BREAK_END') return { title: `Welcome back, ${name}`, detail: 'Your break has ended.', tone: 'success' };
  return { title: `Goodbye, ${name}`, detail: 'You are checked out. Thank you for your visit.', tone: 'success' };
}

interface FindYourNameProps {
  kiosk: Kiosk;
  intent: 'checkout' | 'break';
  onDone(message: ConfirmationMessage): void;
  onCancel(): void;
}

/**
 * Check out and breaks: the person finds their name among the people on site (local data, so it works
 * offline), then gets the actions their state allows, as the shared state machine says.
 */
export function FindYourName({ kiosk, intent, onDone, onCancel }: FindYourNameProps) {
  const [typed, setTyped] = useState('');
  const [matches, setMatches] = useState<PersonVisit[]>([]);
  const [chosenId, setChosenId] = useState<string>();
  const [error, setError] = useState<string>();
  const everyone = useObservable(kiosk.rollCall);
  const chosen = everyone?.find((visit) => visit.visitId === chosenId);
  const chosenName = useRef<HTMLHeadingElement>(null);
  const shownId = chosen?.visitId;

  // The button that chose the person is gone with the list: focus moves to the person's card instead of
  // falling to the page, so a screen reader names who was chosen and the actions come next.
  useEffect(() => {
    if (shownId !== undefined) chosenName.current?.focus();
  }, [shownId]);

  useEffect(() => {
    let current = true;
    // Nobody is listed before something is typed: a lobby screen should not show every visitor's name.
    if (typed.trim() === '') setMatches([]);
    else void kiosk.findPeople(typed).then((found) => current && setMatches(found.slice(0, 8)));
    return () => {
      current = false;
    };
  }, [kiosk, typed, everyone]);

  const act = async (action: PersonAction, visit: PersonVisit) => {
    const run = { BREAK_START: kiosk.startBreak, BREAK_END: kiosk.endBreak, CHECKOUT: kiosk.checkOut }[action];
    const result = await run(visit.visitId);
    if (result.ok) onDone(confirmationFor(action, visit));
    else setError(plainReason(result.code, result.message));
  };

  if (chosen) {
    // A status newer than this kiosk: the state machine cannot say what it allows, so nothing is offered.
    const allowed = isKnown(personStatuses, chosen.status) ? allowedPersonActions(chosen.status) : [];
    const actions = actionOrder.filter((action) => allowed.includes(action));
    return (
      <div className="find-person">
        <div className="person-card">
          <h1 ref={chosenName} className="person-card-name" tabIndex={-1}>{chosen.person.firstName} {chosen.person.lastName}</h1>
          <p className="person-card-status">
            <StatusBadge status={chosen.status} label={personStatusText(chosen.status)} /> since {shortTime(chosen.lastEventAt)}
            {chosen.person.company ? <span> · {chosen.person.company}</span> : null}
          </p>
          {error ? <p className="form-error" role="alert">{error}</p> : null}
          <div className="action-row">
            {actions.map((action) => (
              <button key={action} type="button" className={`button ${action === 'CHECKOUT' ? 'button-primary' : 'button-strong'} button-large`}
                onClick={() => void act(action, chosen)}>
                {actionLabels[action]}
              </button>
            ))}
          </div>
          {actions.length === 0 ? <p className="empty">Nothing to do here for this visit. Please ask at reception.</p> : null}
        </div>
        <div className="form-actions">
          <button type="button" className="button button-secondary" onClick={() => setChosenId(undefined)}>Not you? Back to the list</button>
        </div>
      </div>
    );
  }

  return (
    <div className="find-person">
      <h1 className="screen-title">{intent === 'break' ? 'Break' : 'Check out'}</h1>
      <div className="field">
        <label htmlFor="find-your-name">Find your name</label>
        <input id="find-your-name" type="search" autoFocus autoComplete="off" spellCheck={false} value={typed}
          placeholder="Type the first letters of your name" onChange={(event) => setTyped(event.target.value)} />
      </div>
      {typed.trim() !== '' && matches.length === 0 ? (
        <p className="empty">Nobody on site matches “{typed.trim()}”. Check the spelling, or ask at reception.</p>
      ) : null}
      <ul className="people-list" aria-label="Matching people">
        {matches.map((visit) => (
          <li key={visit.visitId}>
            <button type="button" className="person-button" onClick={() => { setError(undefined); setChosenId(visit.visitId); }}>
              <span className="person-name">{visit.person.firstName} {visit.person.lastName}</span>
              <span className="person-meta">{[visit.person.company, personStatusText(visit.status)].filter(Boolean).join(' · ')}</span>
            </button>
          </li>
        ))}
      </ul>
      <div className="form-actions">
        <button type="button" className="button button-secondary" onClick={onCancel}>Back</button>
      </div>
    </div>
  );
}
