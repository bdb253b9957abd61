import {
  type WatchlistKind,
  type WatchlistPerson,
  digestMessages,
  matchesDigest,
} from '../../../shared/src/domain/watchlist';
import type { WatchlistDigest } from '../../../shared/src/schemas/watchlist';
import type { KioskDatabase } from './database';

const hex = (bytes: ArrayBuffer) =>
  Array.from(new Uint8Array(bytes), (byte) => byte.toString(16).padStart(2, '0')).join('');

/** The person's identifiers hashed as the server hashed the watchlist's (HMAC-SHA256 under the digest's key, WebCrypto). */
async function personHashes(
  digest: WatchlistDigest,
  person: WatchlistPerson,
): Promise<Array<{ kind: WatchlistKind; hash: string }>> {
  const raw = Uint8Array.from(atob(digest.key), (char) => char.charCodeAt(0));
  const key = await globalThis.crypto.subtle.importKey('raw', raw, { name: 'HMAC', hash: 'SHA-256' }, false, ['sign']);
  const encoder = new TextEncoder();
  return Promise.all(
    digestMessages(person).map(async ({ kind, message }) => ({
      kind,
      hash: hex(await globalThis.crypto.subtle.sign('HMAC', key, encoder.encode(message))),
    })),
  );
}

/**
 * Whether the person is on the watchlist as this kiosk last fetched it (false with no digest yet: the
 * server still decides when the check-in reaches it). Outside any Dexie transaction: WebCrypto's promises
 * are not Dexie's, and awaiting one inside a transaction would end it.
 */
export async function onWatchlist(db: KioskDatabase, siteId: number, person: WatchlistPerson): Promise<boolean> {
  const cached = await db.watchlistDigests.get(siteId);
  if (!cached) return false;
  const { digest } = cached;
  if (digest.email.length + digest.phone.length + digest.name.length === 0) return false;
  return matchesDigest(await personHashes(digest, person), digest);
}
