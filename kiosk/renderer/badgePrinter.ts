import { printPdfInFrame } from '../../shared/src/client/printFrame';
import type { BadgePrinter } from '../src/badges/badgePrinting';
import { kioskBridge } from './deviceSettings';

/**
 * The printer of this kiosk: in the Electron app, silently the printer its settings name
 * (kiosk/main/badgePrinter.ts); in a browser, its print dialog, which the visitor confirms.
 */
export function kioskBadgePrinter(win: Window): BadgePrinter {
  const bridge = kioskBridge(win);
  return { print: bridge ? bridge.printBadge : (pdf) => printPdfInFrame(win, pdf) };
}
