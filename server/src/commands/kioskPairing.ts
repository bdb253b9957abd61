import type { HeartbeatRequest, PairedKiosk } from '../../../shared/src/schemas/kiosks';
import { writeAudit } from '../audit/record';
import { hashPairingCode } from '../auth/pairingCodes';
import { checkPairingBudget, refuseWrongCode } from '../auth/pairingThrottle';
import type { Principal } from '../auth/principal';
import { generateToken, hashToken } from '../auth/tokenFormat';
import type { KioskRow } from '../queries/kioskRows';
import { KIOSK_COLUMNS } from '../queries/kioskRows';
import { type Executor, inTransaction, queryOne, queryRows } from '../db/query';
import { sql } from '../db/sql';
import { notFound } from '../errors/problem';

/**
 * Exchanges a pairing code for the kiosk's configuration and a NEW token secret, which replaces the old
 * one (a device paired before gets 401). Single use; a wrong, used or expired code counts against the
 * client address (docs/api.md, Kiosks). `db` is the pool: the failure count commits whatever follows.
 */
export async function pairKiosk(
  db: Executor,
  input: { code: string; address: string; now: Date; requestId: string },
): Promise<PairedKiosk> {
  const { address, now } = input;
  await checkPairingBudget(db, address, now);
  const paired = await inTransaction(db, async (tx) => {
    const kiosk = await queryOne<KioskRow & { token_name: string }>(
      tx,
      sql`SELECT ${KIOSK_COLUMNS}, t.name AS token_name FROM kiosks k
          JOIN api_tokens t ON t.account_id = k.account_id AND t.id = k.token_id AND t.revoked_at IS NULL
          WHERE k.pairing_code_hash = ${hashPairingCode(input.code)} AND k.pairing_expires_at > ${now} AND k.revoked_at IS NULL
          FOR UPDATE OF k`,
    );
    if (!kiosk) return undefined;
    const token = generateToken();
    await queryRows(
      tx,
      sql`UPDATE api_tokens SET token_hash = ${hashToken(token)} WHERE account_id = ${kiosk.account_id} AND id = ${kiosk.token_id}`,
    );
    await queryRows(
      tx,
      sql`UPDATE kiosks SET paired_at = ${now}, pairing_code_hash = NULL, pairing_expires_at = NULL
          WHERE account_id = ${kiosk.account_id} AND id = ${kiosk.id}`,
    );
    await writeAudit(tx, {
      accountId: kiosk.account_id,
      actor: { type: 'token', id: kiosk.token_id, name: kiosk.token_name },
      action: 'kiosk.pair',
      target: { type: 'kiosk', id: kiosk.id },
      siteId: kiosk.site_id,
      at: now,
      requestId: input.requestId,
    });
    return { token, kioskId: kiosk.id, siteId: kiosk.site_id, mode: kiosk.mode, name: kiosk.name };
  });
  if (!paired) return refuseWrongCode(db, address, now);
  return paired;
}

/** Records what a kiosk reports (telemetry, not audited); 404 when the caller is not a kiosk's token. */
export async function recordHeartbeat(
  db: Executor,
  input: { principal: Principal; report: HeartbeatRequest; now: Date },
): Promise<void> {
  const { principal, report } = input;
  const row =
    principal.tokenId === null
      ? undefined
      : await queryOne<{ id: number }>(
          db,
          sql`UPDATE kiosks SET last_seen_at = ${input.now}, pending = ${report.pending}, attention = ${report.attention}, app_version = ${report.appVersion}
        WHERE account_id = ${principal.accountId} AND token_id = ${principal.tokenId} AND revoked_at IS NULL RETURNING id`,
        );
  if (!row) throw notFound("This token is not a paired kiosk's.");
}
