import { type KeyObject, createPrivateKey, generateKeyPairSync } from 'node:crypto';
import { calculateJwkThumbprint } from 'jose';
import { PASS_ALGORITHM } from '../../../shared/src/domain/passes';
import type { PassJwk } from '../../../shared/src/schemas/invitations';
import { LockNamespace, lockUntilCommit } from '../db/advisoryLocks';
import { type Executor, queryOne, queryRows } from '../db/query';
import { sql } from '../db/sql';
import { problem } from '../errors/problem';
import { type Sealing, UnsealError, openPrivateKey, sealPrivateKey } from './keySealing';

/** The key that signs an account's new passes. */
export interface SigningKey {
  kid: string;
  privateKey: KeyObject;
}

/** A key as listed: its public half and when it began and stopped signing. */
export interface PassKeyRow {
  public_jwk: PassJwk;
  created_at: Date;
  retired_at: Date | null;
}

interface CurrentKeyRow {
  kid: string;
  private_key: Buffer;
  sealing: Sealing;
}

/**
 * A new Ed25519 key pair for an account, its id the RFC 7638 thumbprint of its public key, its private
 * half sealed (keySealing.ts). Written as the account's current key; the caller holds the account's lock.
 */
async function insertNewKey(
  db: Executor,
  input: { accountId: number; now: Date; secret: string | undefined },
): Promise<CurrentKeyRow> {
  const { publicKey, privateKey } = generateKeyPairSync('ed25519');
  const { x } = publicKey.export({ format: 'jwk' });
  if (typeof x !== 'string') throw new Error('an Ed25519 public key without x');
  const kid = await calculateJwkThumbprint({ kty: 'OKP', crv: 'Ed25519', x });
  const jwk: PassJwk = { kty: 'OKP', crv: 'Ed25519', x, kid, alg: PASS_ALGORITHM, use: 'sig' };
  const der = privateKey.export({ format: 'der', type: 'pkcs8' });
  const { sealed, sealing } = sealPrivateKey(der, { accountId: input.accountId, kid, secret: input.secret });
  await queryRows(
    db,
    sql`INSERT INTO pass_signing_keys (account_id, kid, public_jwk, private_key, sealing, created_at)
        VALUES (${input.accountId}, ${kid}, ${JSON.stringify(jwk)}::jsonb, ${sealed}, ${sealing}, ${input.now})`,
  );
  return { kid, private_key: sealed, sealing };
}

const readCurrent = (db: Executor, accountId: number) =>
  queryOne<CurrentKeyRow>(
    db,
    sql`SELECT kid, private_key, sealing FROM pass_signing_keys WHERE account_id = ${accountId} AND retired_at IS NULL`,
  );

/**
 * The account's current signing key, made on first use (docs/invitations.md, Signing keys). Inside the
 * write's transaction: a key made here commits with the pass it signs. 503 when the stored key cannot be
 * opened (PASS_KEY_SECRET unset or changed): a server setting to fix, or a rotation to a new key.
 */
export async function currentSigningKey(
  db: Executor,
  input: { accountId: number; now: Date; secret: string | undefined },
): Promise<SigningKey> {
  let row = await readCurrent(db, input.accountId);
  if (!row) {
    await lockUntilCommit(db, LockNamespace.PASS_SIGNING_KEY, input.accountId, String(input.accountId));
    row = (await readCurrent(db, input.accountId)) ?? (await insertNewKey(db, input));
  }
  try {
    const der = openPrivateKey(row.private_key, { ...input, kid: row.kid, sealing: row.sealing });
    return { kid: row.kid, privateKey: createPrivateKey({ key: der, format: 'der', type: 'pkcs8' }) };
  } catch (error) {
    if (!(error instanceof UnsealError)) throw error;
    throw problem(
      'UNAVAILABLE',
      `Passes cannot be signed: ${error.message}. Set PASS_KEY_SECRET as it was, or rotate the account's signing key (POST /v1/pass-keys/rotate).`,
    );
  }
}

/**
 * Retires the account's current key and makes a new one (docs/invitations.md, Rotation). The retired key's
 * private half is destroyed at once (the passes it signed are kept whole with their invitations); its
 * public half stays published while any pass it signed is valid, so passes already sent keep working.
 */
export async function rotateSigningKey(
  db: Executor,
  input: { accountId: number; now: Date; secret: string | undefined },
): Promise<void> {
  await lockUntilCommit(db, LockNamespace.PASS_SIGNING_KEY, input.accountId, String(input.accountId));
  await queryRows(
    db,
    sql`UPDATE pass_signing_keys SET retired_at = ${input.now}, private_key = NULL
        WHERE account_id = ${input.accountId} AND retired_at IS NULL`,
  );
  await insertNewKey(db, input);
}

/**
 * SQL: the key `k` is published: it signs now, or signed a pass that is still within its validity (of an
 * invitation in any state: a used pass shown again must still read as genuine, to be told apart from a forgery).
 */
const published = (now: Date) => sql`(k.retired_at IS NULL OR EXISTS (
    SELECT 1 FROM invitations i WHERE i.account_id = k.account_id AND i.pass_kid = k.kid AND i.valid_until > ${now}))`;

/** The account's published keys, oldest first. */
export async function publishedKeys(db: Executor, input: { accountId: number; now: Date }): Promise<PassKeyRow[]> {
  return queryRows<PassKeyRow>(
    db,
    sql`SELECT k.public_jwk, k.created_at, k.retired_at FROM pass_signing_keys k
        WHERE k.account_id = ${input.accountId} AND ${published(input.now)}
        ORDER BY k.created_at, k.kid`,
  );
}
