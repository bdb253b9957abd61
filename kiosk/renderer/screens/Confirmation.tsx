import { type MouseEvent, type ReactNode, useEffect, useRef, useState } from 'react';
import { Icon } from '../components/Icon';
import { useWords } from '../language/VisitorLanguage';

/** How long a confirmation stays before the visitor home comes back by itself (at most 5 s: the next visitor is waiting). */
export const CONFIRMATION_MS = 4000;

/**
 * How long taps are ignored once a confirmation appears: the second tap of a double tap on the button that
 * led here lands on it, and would otherwise dismiss it before the person has read it.
 */
export const TAP_GUARD_MS = 600;

export interface ConfirmationMessage {
  /** In the visitor's words; a name in it ("Welcome, Ada") may break to fit (language/namedTitle.tsx). */
  title: ReactNode;
  detail: string;
  tone: 'success' | 'notice';
}

/**
 * The answer to a visitor's action. It never waits for the network: the action is already safe in the
 * outbox. It goes back home by itself, or at once on a tap anywhere or a key press; only a tap on the card
 * or a key in its first TAP_GUARD_MS is ignored (see there).
 */
export function Confirmation({ message, onDone }: { message: ConfirmationMessage; onDone: () => void }) {
  const words = useWords();
  // Through a ref: the parent re-renders on every status change, and that must not restart the timer.
  const done = useRef(onDone);
  useEffect(() => {
    done.current = onDone;
  });
  const [shownAt] = useState(() => performance.now());
  const dismissLater = () => {
    if (performance.now() - shownAt >= TAP_GUARD_MS) done.current();
  };
  // A tap on Done itself is meant: Done sits mid-card, away from where the form's buttons were. Enter or
  // Space on it (a click with no pointer, detail 0) is guarded: focus moves to Done, so a key pressed twice
  // is the keyboard's double tap.
  const onDoneClick = (event: MouseEvent) => {
    event.stopPropagation();
    if (event.detail === 0) dismissLater();
    else done.current();
  };
  const button = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    button.current?.focus();
    const timer = window.setTimeout(() => done.current(), CONFIRMATION_MS);
    return () => window.clearTimeout(timer);
  }, []);
  return (
    // A tap anywhere goes home (Done, which has the focus, is the keyboard's way).
    // eslint-disable-next-line jsx-a11y/click-events-have-key-events, jsx-a11y/no-static-element-interactions -- see above
    <div className={`confirmation tone-${message.tone}`} onClick={dismissLater}>
      <div className="confirmation-mark">
        <Icon name={message.tone === 'success' ? 'check' : 'alert'} size={72} />
      </div>
      {/* An alert, not a status: it is read out although focus moves to Done at the same moment, and the
          status bar stays the page's only role="status". */}
      <div className="confirmation-message" role="alert" aria-atomic="true">
        <h1 className="confirmation-title">{message.title}</h1>
        <p className="confirmation-detail">{message.detail}</p>
      </div>
      <button ref={button} type="button" className="button button-secondary" onClick={onDoneClick}>
        {words.t('done.done')}
      </button>
      <div className="confirmation-timer" aria-hidden="true" style={{ animationDuration: `${CONFIRMATION_MS}ms` }} />
    </div>
  );
}
