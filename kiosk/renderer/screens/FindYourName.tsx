import { useEffect, useRef, useState } from 'react';
import { isKnown } from '../../../shared/src/client/answers';
import { allowedPersonActions, personStatuses } from '../../../shared/src/domain';
import type { Kiosk } from '../../src/kiosk';
import type { PersonVisit } from '../../src/data/types';
import { StatusBadge } from '../components/StatusBadge';
import { useObservable } from '../hooks/useObservable';
import { useBadgeScan } from '../hooks/useBadgeScan';
import type { KioskMessage } from '../../../shared/src/messages/kiosk';
import { type KioskWords, useWords } from '../language/VisitorLanguage';
import { namedTitle } from '../language/namedTitle';
import { visitStatusText, visitorReason, visitorTime } from '../language/visitorWords';
import type { ConfirmationMessage } from './Confirmation';

type PersonAction = 'BREAK_START' | 'BREAK_END' | 'CHECKOUT';

const actionLabels: Record<PersonAction, KioskMessage> = {
  BREAK_START: 'find.startBreak',
  BREAK_END: 'find.endBreak',
  CHECKOUT: 'find.doCheckOut',
};
const actionOrder: PersonAction[] = ['BREAK_START', 'BREAK_END', 'CHECKOUT'];

// More would be a list to scroll on a lobby screen: whoever is not among them types more of their name.
const MOST_LISTED = 8;

const confirmations: Record<PersonAction, { title: KioskMessage; detail: KioskMessage }> = {
  BREAK_START: { title: 'done.breakStarted', detail: 'done.breakStartedDetail' },
  BREAK_END: { title: 'done.breakEnded', detail: 'done.breakEndedDetail' },
  CHECKOUT: { title: 'done.checkedOut', detail: 'done.checkedOutDetail' },
};

function confirmationFor(words: KioskWords, action: PersonAction, visit: PersonVisit): ConfirmationMessage {
  const { title, detail } = confirmations[action];
  return { title: namedTitle(words, title, visit.person.firstName), detail: words.t(detail), tone: 'success' };
}

interface FindYourNameProps {
  kiosk: Kiosk;
  intent: 'checkout' | 'break';
  /**
   * A visit to offer at once: the one the check-in form said the person is already checked in with. Its
   * name is searched for as if typed, so a namesake still finds their own visit in the list below it.
   */
  offer?: PersonVisit;
  onDone: (message: ConfirmationMessage) => void;
  onCancel: () => void;
}

/**
 * Check out and breaks: the person finds their name among the people who may check out or take a break
 * (IN, ON_BREAK; local data, so it works offline), then gets the actions their state allows, as the shared
 * state machine says. Nobody else is ever listed: not a visitor the site refused (STOP), nor one waiting
 * for approval.
 */
export function FindYourName({ kiosk, intent, offer, onDone, onCancel }: FindYourNameProps) {
  const words = useWords();
  const [typed, setTyped] = useState(offer ? `${offer.person.firstName} ${offer.person.lastName}` : '');
  // With the text it answers, so "Nobody matches" waits for the answer to what is typed now.
  const [found, setFound] = useState<{ query: string; visits: PersonVisit[] }>();
  const [chosenId, setChosenId] = useState<string>();
  const [error, setError] = useState<string>();
  // Only those who may leave (IN, ON_BREAK): a chosen person whose visit the server then stops leaves the screen.
  const everyone = useObservable(kiosk.peopleWhoMayLeave);
  const chosen = everyone?.find((visit) => visit.visitId === chosenId);
  const badge = useBadgeScan(kiosk, typed, (visit) => onDone(confirmationFor(words, 'CHECKOUT', visit)));

  useEffect(() => {
    let current = true;
    // Nobody is listed before something is typed: a lobby screen should not show every visitor's name.
    // A badge being scanned is not a name.
    if (typed.trim() === '' || badge.scanning) setFound(undefined);
    else void kiosk.findPeople(typed).then((visits) => current && setFound({ query: typed, visits }));
    return () => {
      current = false;
    };
  }, [kiosk, typed, everyone, badge.scanning]);

  const act = async (action: PersonAction, visit: PersonVisit) => {
    const run = { BREAK_START: kiosk.startBreak, BREAK_END: kiosk.endBreak, CHECKOUT: kiosk.checkOut }[action];
    const result = await run(visit.visitId);
    if (result.ok) onDone(confirmationFor(words, action, visit));
    else setError(visitorReason(words, result.code));
  };

  if (chosen) {
    return (
      <div className="find-person">
        <PersonCard visit={chosen} heading="h1" error={error} onAct={act} />
        <div className="form-actions">
          <button
            type="button"
            className="button button-secondary"
            onClick={() => {
              setError(undefined);
              setChosenId(undefined);
            }}
          >
            {words.t('find.notYou')}
          </button>
        </div>
      </div>
    );
  }

  // Found by what is typed, so it goes once the text is no longer its name, and so does a visit that left.
  const offered = offer && found?.visits.find((visit) => visit.visitId === offer.visitId);
  const listed = (found?.visits ?? []).filter((visit) => visit !== offered).slice(0, MOST_LISTED);
  return (
    <div className="find-person">
      <h1 className="screen-title">{words.t(intent === 'break' ? 'find.break' : 'find.checkOut')}</h1>
      <div className="field">
        <label htmlFor="find-your-name">{words.t('find.label')}</label>
        {/* Not focused over an offer: on a tablet the keyboard would open over the visit offered. */}
        <input
          id="find-your-name"
          type="search"
          // eslint-disable-next-line jsx-a11y/no-autofocus -- a scanner or the next keystroke types here: the field must have the focus
          autoFocus={!offer}
          autoComplete="off"
          spellCheck={false}
          value={typed}
          placeholder={words.t('find.placeholder')}
          onChange={(event) => {
            badge.clearScanError();
            setTyped(event.target.value);
          }}
          onKeyDown={(event) => badge.onKeyDown(event, () => setTyped(''))}
        />
      </div>
      {badge.scanError ? (
        <p className="form-error" role="alert">
          {badge.scanError}
        </p>
      ) : null}
      {found?.query === typed && found.visits.length === 0 ? (
        <p className="empty">{words.t('find.nobody', { typed: typed.trim() })}</p>
      ) : null}
      {offered ? <PersonCard visit={offered} heading="h2" error={error} onAct={act} /> : null}
      <ul className="people-list" aria-label={words.t('find.matching')}>
        {listed.map((visit) => (
          <li key={visit.visitId}>
            <button
              type="button"
              className="person-button"
              onClick={() => {
                setError(undefined);
                setChosenId(visit.visitId);
              }}
            >
              <span className="person-name">
                {visit.person.firstName} {visit.person.lastName}
              </span>
              <span className="person-meta">
                {[visit.person.company, visitStatusText(words, visit.status)].filter(Boolean).join(' · ')}
              </span>
            </button>
          </li>
        ))}
      </ul>
      <div className="form-actions">
        <button type="button" className="button button-secondary" onClick={onCancel}>
          {words.t('find.back')}
        </button>
      </div>
    </div>
  );
}

interface PersonCardProps {
  visit: PersonVisit;
  /** h1 when the card is the screen (a person chosen from the list), h2 when it is part of it (a visit offered). */
  heading: 'h1' | 'h2';
  error: string | undefined;
  onAct: (action: PersonAction, visit: PersonVisit) => Promise<void>;
}

/** One visit: who, since when, and the actions its state allows. */
function PersonCard({ visit, heading: Heading, error, onAct }: PersonCardProps) {
  const words = useWords();
  const name = useRef<HTMLHeadingElement>(null);
  // The control that led here is gone with its screen (the list's button, the notice's Check out): focus moves
  // to the name instead of falling to the page, so a screen reader says who this is and the actions come
  // next. Focus held elsewhere (someone typing in the search) stays where it is.
  useEffect(() => {
    const focused = document.activeElement;
    if (focused === null || focused === document.body) name.current?.focus();
  }, [visit.visitId]);
  // A status newer than this kiosk: the state machine cannot say what it allows, so nothing is offered.
  const allowed = isKnown(personStatuses, visit.status) ? allowedPersonActions(visit.status) : [];
  const actions = actionOrder.filter((action) => allowed.includes(action));
  return (
    <div className="person-card">
      <Heading ref={name} className="person-card-name" tabIndex={-1}>
        {visit.person.firstName} {visit.person.lastName}
      </Heading>
      <p className="person-card-status">
        <StatusBadge status={visit.status} label={visitStatusText(words, visit.status)} />{' '}
        {words.t('find.since', { time: visitorTime(words, visit.lastEventAt) })}
        {visit.person.company ? <span> · {visit.person.company}</span> : null}
      </p>
      {error ? (
        <p className="form-error" role="alert">
          {error}
        </p>
      ) : null}
      <div className="action-row">
        {actions.map((action) => (
          <button
            key={action}
            type="button"
            className={`button ${action === 'CHECKOUT' ? 'button-primary' : 'button-strong'} button-large`}
            onClick={() => void onAct(action, visit)}
          >
            {words.t(actionLabels[action])}
          </button>
        ))}
      </div>
      {actions.length === 0 ? <p className="empty">{words.t('find.nothingToDo')}</p> : null}
    </div>
  );
}
