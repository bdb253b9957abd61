/** What became of a badge sent to a printer. */
export type PrintOutcome = { printed: true } | { printed: false; reason: string };

/** How long the print frame stays after printing began (a print dialog left open keeps it longer). */
const FRAME_KEPT_MS = 60_000;

/**
 * Prints a PDF through the browser's print dialog: the PDF in an invisible frame (a blob of it: the page's
 * Content-Security-Policy must allow `frame-src blob:`), whose own print() opens the dialog for that
 * document alone, not the page around it. The person at the screen confirms it; the browser has the printer.
 * Used by a kiosk in a browser and by the console's Print badge.
 */
export function printPdfInFrame(win: Window, pdf: Uint8Array): Promise<PrintOutcome> {
  return new Promise<PrintOutcome>((resolve) => {
    const doc = win.document;
    const url = URL.createObjectURL(new Blob([pdf.slice().buffer], { type: 'application/pdf' }));
    const frame = doc.createElement('iframe');
    frame.title = 'Visitor badge';
    frame.setAttribute('aria-hidden', 'true');
    frame.tabIndex = -1;
    // Laid out, so the browser loads and prints it, but never seen.
    Object.assign(frame.style, {
      position: 'fixed',
      right: '0',
      bottom: '0',
      width: '1px',
      height: '1px',
      border: '0',
      opacity: '0',
      pointerEvents: 'none',
    });
    frame.addEventListener('load', () => {
      try {
        frame.contentWindow?.focus();
        frame.contentWindow?.print();
        resolve({ printed: true });
      } catch (error) {
        resolve({ printed: false, reason: error instanceof Error ? error.message : String(error) });
      }
      win.setTimeout(() => {
        frame.remove();
        URL.revokeObjectURL(url);
      }, FRAME_KEPT_MS);
    });
    frame.src = url;
    doc.body.appendChild(frame);
  });
}
