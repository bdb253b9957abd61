import type { Event, Input, WebContents } from 'electron';

/** What a swallowed shortcut would have done: the reason it must not work at the gate keyboard. */
export type ShortcutEffect = 'devtools' | 'reload' | 'close' | 'quit' | 'fullscreen';

/**
 * The letter of a key as a browser's shortcut sees it: the typed letter on a Latin layout (so Ctrl+A stays
 * "select all" on AZERTY, where it sits on the Q key), the physical key on any other (Cyrillic, Greek…),
 * as Chromium's accelerators do. AltGr (reported as Ctrl+Alt) types characters such as "@" on the Q key
 * of a German keyboard: those are typing, not shortcuts.
 */
function shortcutLetter(input: Input): string | undefined {
  if (/^[a-z]$/i.test(input.key)) return input.key.toLowerCase();
  if (input.alt) return undefined;
  return /^Key([A-Z])$/.exec(input.code)?.[1]?.toLowerCase();
}

/**
 * The effect of a key press if it is one of the browser's or the OS's ways out of the kiosk (reload, close,
 * quit, developer tools, leaving full screen), or undefined for everything else: typing, Enter from a
 * keyboard-wedge scanner, Tab, Escape, and editing shortcuts such as Ctrl+C or Ctrl+V.
 */
export function shortcutEffect(input: Input): ShortcutEffect | undefined {
  const primary = input.control || input.meta; // Ctrl on Windows and Linux, Cmd on macOS
  if (input.key === 'F12') return 'devtools';
  if (input.key === 'F5' || input.key === 'BrowserRefresh') return 'reload';
  if (input.key === 'F11') return 'fullscreen';
  if (input.key === 'F4') return primary || input.alt ? 'close' : undefined;
  if (!primary) return undefined;
  const letter = shortcutLetter(input);
  if (letter === 'i' || letter === 'j' || letter === 'c') return input.shift || input.alt ? 'devtools' : undefined;
  if (letter === 'r') return 'reload';
  if (letter === 'w') return 'close';
  if (letter === 'q') return 'quit';
  if (letter === 'f' && input.meta && input.control) return 'fullscreen'; // macOS: Ctrl+Cmd+F
  return undefined;
}

/**
 * Swallows the kiosk's way-out shortcuts before the page or any menu sees them. With `devTools` (the
 * KIOSK_DEVTOOLS debug switch), the developer-tools shortcuts open and close the tools instead: the
 * kiosk has no application menu that would do it.
 */
export function lockKeyboard(contents: WebContents, options: { devTools: boolean }): void {
  contents.on('before-input-event', (event: Event, input: Input) => {
    const effect = shortcutEffect(input);
    if (effect === undefined) return;
    event.preventDefault();
    if (effect === 'devtools' && options.devTools && input.type === 'keyDown' && !input.isAutoRepeat)
      contents.toggleDevTools();
  });
}
