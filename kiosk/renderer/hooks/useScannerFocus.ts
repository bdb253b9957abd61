import { type RefObject, useEffect } from 'react';

/** Where focus is left alone: another place to type, or anything inside an open dialog. */
function wantsFocus(element: Element | null): boolean {
  return (
    element?.closest('input, select, textarea, [contenteditable]:not([contenteditable="false"])') != null ||
    dialogOpen()
  );
}

function dialogOpen(): boolean {
  return document.querySelector('dialog[open], [role="dialog"], [role="alertdialog"], [aria-modal="true"]') !== null;
}

/** A key that types a character (a scanner's first one), as opposed to Tab, Enter, Space or a shortcut. */
const typesCharacter = (event: KeyboardEvent) =>
  event.key.length === 1 && event.key !== ' ' && !event.ctrlKey && !event.metaKey && !event.altKey;

/**
 * Keeps `target` focused while it is shown, so a keyboard-wedge scanner always types into it: after a tap
 * on a button, a list or a blank area, and when a scan starts while focus is elsewhere. Focus is left
 * where it is when another input or a dialog has it, and Tab still moves on (no keyboard trap): the next
 * typed character comes back by itself.
 */
export function useScannerFocus(target: RefObject<HTMLInputElement | null>): void {
  useEffect(() => {
    let timer: number | undefined;
    const refocus = (onlyFromNowhere: boolean) => {
      const input = target.current;
      const active = document.activeElement;
      if (!input || !input.isConnected || input.disabled || active === input) return;
      const nowhere = active === null || active === document.body;
      if (onlyFromNowhere ? !nowhere : wantsFocus(active)) return;
      if (nowhere && dialogOpen()) return;
      input.focus({ preventScroll: true });
    };
    // After the event has done its work: a tab that leaves the gate screen unmounts it (and this) first.
    const later = (onlyFromNowhere: boolean) => {
      window.clearTimeout(timer);
      timer = window.setTimeout(() => refocus(onlyFromNowhere), 0);
    };
    // A tap on a blank area or the on-site list drops focus to the page.
    const onFocusOut = () => later(true);
    // A tap (or Enter) on a button: back to the input once the button has acted.
    const onClick = () => later(false);
    // Focus moved now, during keydown, so the character itself lands in the input.
    const onKeyDown = (event: KeyboardEvent) => {
      if (typesCharacter(event) && !wantsFocus(document.activeElement)) refocus(false);
    };
    document.addEventListener('focusout', onFocusOut);
    document.addEventListener('click', onClick);
    document.addEventListener('keydown', onKeyDown, true);
    return () => {
      window.clearTimeout(timer);
      document.removeEventListener('focusout', onFocusOut);
      document.removeEventListener('click', onClick);
      document.removeEventListener('keydown', onKeyDown, true);
    };
  }, [target]);
}
