import type { CreateKioskRequest } from '../../../shared/src/schemas/kiosks';
import { PAIRING_CODE_TTL_MS, generatePairingCode, hashPairingCode } from '../auth/pairingCodes';
import type { Principal } from '../auth/principal';
import { type KioskRow, findKiosk } from '../db/kioskRows';
import { type Executor, queryOne, queryRows } from '../db/query';
import { sql } from '../db/sql';
import { notFound, validationFailed } from '../errors/problem';
import { siteVisibleSql } from '../policies/siteVisibility';
import { createToken } from './provisioning';

export interface IssuedCode {
  pairingCode: string;
  pairingExpiresAt: Date;
}

/**
 * Gives the kiosk a fresh pairing code (only its hash is kept; an earlier unused one stops working). An
 * expired code of another kiosk with the same hash is cleared first, so the unique index never trips on it.
 */
async function issueCode(db: Executor, kiosk: { accountId: number; kioskId: number }, now: Date): Promise<IssuedCode> {
  const code = generatePairingCode();
  const codeHash = hashPairingCode(code);
  const expiresAt = new Date(now.getTime() + PAIRING_CODE_TTL_MS);
  await queryRows(
    db,
    sql`UPDATE kiosks SET pairing_code_hash = NULL, pairing_expires_at = NULL
        WHERE pairing_code_hash = ${codeHash} AND pairing_expires_at <= ${now}`,
  );
  await queryRows(
    db,
    sql`UPDATE kiosks SET pairing_code_hash = ${codeHash}, pairing_expires_at = ${expiresAt}
        WHERE account_id = ${kiosk.accountId} AND id = ${kiosk.kioskId}`,
  );
  return { pairingCode: code, pairingExpiresAt: expiresAt };
}

/**
 * Adds a kiosk on a site the caller can view, with its KIOSK token (the kiosk defaults, that site only),
 * whose secret nobody sees: pairing issues a new one. Answers the kiosk and its first pairing code.
 */
export async function createKiosk(
  db: Executor,
  input: { principal: Principal; request: CreateKioskRequest; now: Date },
): Promise<{ kiosk: KioskRow } & IssuedCode> {
  const { principal, request, now } = input;
  const site = await queryOne<{ id: number }>(
    db,
    sql`SELECT s.id FROM sites s WHERE s.account_id = ${principal.accountId} AND s.id = ${request.siteId} AND ${siteVisibleSql(principal, sql`s.id`)}`,
  );
  if (!site) throw validationFailed([{ path: 'siteId', message: 'No such site, or not one of yours' }]);
  const token = await createToken(db, {
    accountId: principal.accountId,
    name: request.name,
    siteIds: [request.siteId],
    channel: 'KIOSK',
    mode: request.mode,
  });
  const row = await queryOne<{ id: number }>(
    db,
    sql`INSERT INTO kiosks (account_id, site_id, mode, name, token_id, created_at)
        VALUES (${principal.accountId}, ${request.siteId}, ${request.mode}, ${request.name}, ${token.tokenId}, ${now}) RETURNING id`,
  );
  if (!row) throw new Error('kiosk insert returned nothing');
  const code = await issueCode(db, { accountId: principal.accountId, kioskId: row.id }, now);
  const kiosk = await findKiosk(db, principal, row.id);
  if (!kiosk) throw new Error('kiosk vanished');
  return { kiosk, ...code };
}

/** A fresh pairing code for a live kiosk on one of the caller's sites (404 otherwise). */
export async function newPairingCode(
  db: Executor,
  input: { principal: Principal; kioskId: number; now: Date },
): Promise<IssuedCode & { siteId: number }> {
  const kiosk = await findKiosk(db, input.principal, input.kioskId, true);
  if (!kiosk) throw notFound(`Kiosk ${input.kioskId} does not exist.`);
  return {
    ...(await issueCode(db, { accountId: kiosk.account_id, kioskId: kiosk.id }, input.now)),
    siteId: kiosk.site_id,
  };
}

/** Revokes the kiosk and its token at once: the device's next request is a 401. */
export async function revokeKiosk(
  db: Executor,
  input: { principal: Principal; kioskId: number; now: Date },
): Promise<KioskRow> {
  const kiosk = await findKiosk(db, input.principal, input.kioskId, true);
  if (!kiosk) throw notFound(`Kiosk ${input.kioskId} does not exist.`);
  await queryRows(
    db,
    sql`UPDATE kiosks SET revoked_at = ${input.now}, pairing_code_hash = NULL, pairing_expires_at = NULL
        WHERE account_id = ${kiosk.account_id} AND id = ${kiosk.id}`,
  );
  await queryRows(
    db,
    sql`UPDATE api_tokens SET revoked_at = ${input.now} WHERE account_id = ${kiosk.account_id} AND id = ${kiosk.token_id} AND revoked_at IS NULL`,
  );
  return kiosk;
}
