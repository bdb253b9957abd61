import type { VisitAction } from '../shared/src/client/visit';
import type { VisitCheckinRequest } from '../shared/src/schemas/visit';

/**
 * What the phone keeps of its visit, in localStorage under the site's code (so a visit at one site never
 * meets another's): the visit key (256 random bits, never in a URL or a log), the visit it opened, and a
 * request sent but not yet answered, with its Idempotency-Key, to send again as it was.
 */
export interface StoredVisit {
  key: string;
  checkinId?: number;
  /** A check-in sent and not answered yet. */
  pendingCheckin?: { idempotencyKey: string; body: VisitCheckinRequest };
  /** A break or checkout sent and not answered yet. */
  pendingAction?: { action: VisitAction; idempotencyKey: string };
}

const storageKey = (code: string) => `gatehouse.visit.${code}`;

/** The code of `/visit/{code}` (what follows the last slash), as the poster printed it. */
export const codeOfPath = (pathname: string): string => {
  const segment = pathname.replace(/\/+$/, '').split('/').pop() ?? '';
  try {
    return decodeURIComponent(segment).trim().toUpperCase();
  } catch {
    return '';
  }
};

export function loadVisit(code: string): StoredVisit | undefined {
  try {
    const raw = window.localStorage.getItem(storageKey(code));
    if (raw === null) return undefined;
    const parsed = JSON.parse(raw) as StoredVisit;
    return typeof parsed.key === 'string' ? parsed : undefined;
  } catch {
    return undefined;
  }
}

export function saveVisit(code: string, visit: StoredVisit): void {
  window.localStorage.setItem(storageKey(code), JSON.stringify(visit));
}

export function forgetVisit(code: string): void {
  window.localStorage.removeItem(storageKey(code));
}

/** A new visit key: 256 bits from the browser's cryptographic generator, base64url without padding. */
export function newVisitKey(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(32));
  return btoa(String.fromCharCode(...bytes))
    .replaceAll('+', '-')
    .replaceAll('/', '_')
    .replace(/=+$/, '');
}

export const newIdempotencyKey = (): string => crypto.randomUUID();
