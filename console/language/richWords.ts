import { Fragment, type ReactNode, createElement } from 'react';
import type { ConsoleMessage } from '../../shared/src/messages/console';
import type { MessageValue, TagRenderer } from '../../shared/src/messages/translator';
import type { ConsoleWords } from './consoleWords';

/**
 * A message with tags (`<code>;</code>`), each tag rendered by its function: the parts are one fragment's
 * children, so React asks no keys of them.
 */
export function richWords(
  words: ConsoleWords,
  key: ConsoleMessage,
  values: Readonly<Record<string, MessageValue | TagRenderer<ReactNode>>>,
): ReactNode {
  return createElement(Fragment, null, ...words.rich<ReactNode>(key, values));
}
