import type { BadgePrinter, PrintOutcome } from '../src/badges/badgePrinting';
import { kioskBridge } from './deviceSettings';

/** How long the print frame stays after printing began (a print dialog left open keeps it longer). */
const FRAME_KEPT_MS = 60_000;

/**
 * A browser prints a badge through its print dialog: the PDF in an invisible frame, whose own print()
 * opens the dialog for that document alone (the kiosk's screen is not printed). The person at the kiosk
 * confirms it; the browser chooses the printer.
 */
export function dialogPrinter(win: Window): BadgePrinter {
  return {
    print: (pdf) =>
      new Promise<PrintOutcome>((resolve) => {
        const doc = win.document;
        const url = URL.createObjectURL(new Blob([pdf.slice().buffer], { type: 'application/pdf' }));
        const frame = doc.createElement('iframe');
        frame.title = 'Visitor badge';
        frame.className = 'badge-print-frame';
        frame.setAttribute('aria-hidden', 'true');
        frame.tabIndex = -1;
        const remove = () => {
          frame.remove();
          URL.revokeObjectURL(url);
        };
        frame.addEventListener('load', () => {
          try {
            frame.contentWindow?.focus();
            frame.contentWindow?.print();
            resolve({ printed: true });
          } catch (error) {
            resolve({ printed: false, reason: String(error) });
          }
          win.setTimeout(remove, FRAME_KEPT_MS);
        });
        frame.src = url;
        doc.body.appendChild(frame);
      }),
  };
}

/** The Electron app prints silently to the printer its settings name (kiosk/main/badgePrinter.ts). */
function appPrinter(print: (pdf: Uint8Array) => Promise<PrintOutcome>): BadgePrinter {
  return { print };
}

/** The printer of this kiosk: the app's when the renderer runs in the Electron app, else the browser's dialog. */
export function kioskBadgePrinter(win: Window): BadgePrinter {
  const bridge = kioskBridge(win);
  return bridge ? appPrinter(bridge.printBadge) : dialogPrinter(win);
}
