import { Fragment, type ReactNode, createElement } from 'react';
import type { KioskMessage } from '../../../shared/src/messages/kiosk';
import type { KioskWords } from './VisitorLanguage';

/**
 * A heading that greets a visitor by name ("Welcome, Ada"; "Ada，祝您休息愉快"): each language puts the name
 * where its sentence wants it, and the name alone may break to fit (a name may be one long word).
 */
export function namedTitle(words: KioskWords, key: KioskMessage, name: string): ReactNode {
  const parts = words.rich<ReactNode>(key, {
    name,
    who: (chunks) => createElement('span', { className: 'title-name' }, ...chunks),
  });
  return createElement(Fragment, null, ...parts);
}
