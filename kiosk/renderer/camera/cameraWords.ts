/** Why the camera did not start, in words for the person at the kiosk (getUserMedia's error names). */
export function cameraProblem(error: unknown): string {
  const name = error instanceof DOMException || error instanceof Error ? error.name : '';
  if (name === 'NotAllowedError' || name === 'SecurityError')
    return "The camera is not allowed for this page. Allow it in the browser's site settings, or type the code in instead.";
  if (name === 'NotFoundError' || name === 'OverconstrainedError')
    return 'No camera was found. Type the code in instead.';
  if (name === 'NotReadableError' || name === 'AbortError')
    return 'The camera is busy or could not be started: another app may be using it. Type the code in instead.';
  return 'The camera could not be started. Type the code in instead.';
}

export const READER_FAILED_WORDS = 'The QR code reader could not be loaded. Type the code in instead.';
