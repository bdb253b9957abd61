import type { KioskMessage } from '../../../shared/src/messages/kiosk';

/**
 * Why the camera did not start, by getUserMedia's error name: the catalog word the person at the kiosk reads
 * (in the visitor's language on a visitor screen, in English on the staff's pairing screen).
 */
export function cameraProblem(error: unknown): KioskMessage {
  const name = error instanceof DOMException || error instanceof Error ? error.name : '';
  if (name === 'NotAllowedError' || name === 'SecurityError') return 'camera.notAllowed';
  if (name === 'NotFoundError' || name === 'OverconstrainedError') return 'camera.notFound';
  if (name === 'NotReadableError' || name === 'AbortError') return 'camera.busy';
  return 'camera.failed';
}
