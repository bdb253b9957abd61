/**
 * How a person is compared with the watchlist, on the server and in the kiosk alike: email
 * case-insensitive, phone by its digits, full name case-insensitive with spaces collapsed (docs/api.md,
 * Watchlist). The kiosk compares keyed hashes of these values (the watchlist digest), never the values.
 */
export function normalizeEmail(email: string | undefined | null): string | null {
  const value = email?.trim().toLowerCase();
  return value ? value : null;
}

export function normalizePhone(phone: string | undefined | null): string | null {
  const digits = phone?.replace(/\D/g, '');
  return digits ? digits : null;
}

export function normalizeName(
  firstName: string | undefined | null,
  lastName: string | undefined | null,
): string | null {
  const first = firstName?.trim().toLowerCase().replace(/\s+/g, ' ');
  const last = lastName?.trim().toLowerCase().replace(/\s+/g, ' ');
  return first && last ? `${first} ${last}` : null;
}

/** The identifiers a watchlist entry or a visitor can be known by. */
export const watchlistKinds = ['email', 'phone', 'name'] as const;
export type WatchlistKind = (typeof watchlistKinds)[number];

export interface WatchlistPerson {
  email?: string | null;
  phone?: string | null;
  firstName?: string | null;
  lastName?: string | null;
}

/**
 * The texts the digest's HMAC is taken of, one per identifier the person has: the kind, a colon, the
 * normalized value ("email:ada@example.com"), so one value hashes differently as an email and as a name.
 */
export function digestMessages(person: WatchlistPerson): Array<{ kind: WatchlistKind; message: string }> {
  const values: Record<WatchlistKind, string | null> = {
    email: normalizeEmail(person.email),
    phone: normalizePhone(person.phone),
    name: normalizeName(person.firstName, person.lastName),
  };
  return watchlistKinds.flatMap((kind) => {
    const value = values[kind];
    return value === null ? [] : [{ kind, message: `${kind}:${value}` }];
  });
}

/** The hashes of a digest, by kind (hex HMAC-SHA256 values). */
export type DigestHashes = Record<WatchlistKind, readonly string[]>;

/** Whether any of a person's hashed identifiers is in the digest: the person is on the watchlist. */
export function matchesDigest(
  personHashes: ReadonlyArray<{ kind: WatchlistKind; hash: string }>,
  digest: DigestHashes,
): boolean {
  return personHashes.some(({ kind, hash }) => digest[kind].includes(hash));
}
