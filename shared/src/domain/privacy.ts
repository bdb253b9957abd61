import { normalizeEmail, normalizeName, normalizePhone } from './watchlist';

const DAY_MS = 86_400_000;

/** Visits that ended (or, never ended, began) before this instant have their person data anonymized. */
export function retentionCutoff(now: Date, personDataDays: number): Date {
  return new Date(now.getTime() - personDataDays * DAY_MS);
}

/** An erasure's identifiers, normalized as the watchlist compares them; null where not given. */
export interface ErasureIdentifiers {
  email: string | null;
  phone: string | null;
  name: string | null;
}

export function erasureIdentifiers(request: {
  email?: string;
  phone?: string;
  firstName?: string;
  lastName?: string;
}): ErasureIdentifiers {
  return {
    email: normalizeEmail(request.email),
    phone: normalizePhone(request.phone),
    name: normalizeName(request.firstName, request.lastName),
  };
}

/** The text an erasure's audit hash is taken of: fixed order, so the same person always hashes the same. */
export function erasureHashText(identifiers: ErasureIdentifiers): string {
  return JSON.stringify([identifiers.email, identifiers.phone, identifiers.name]);
}
