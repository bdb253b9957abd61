import type { Sequelize } from 'sequelize';
import type { Executor } from '../db/query';
import { ProblemError, problem } from '../errors/problem';
import type { Reply } from '../routes/define';
import { type SerializedReply, serializeProblem, serializeReply } from './serialized';
import { claimKey, saveOutcome } from './store';

export interface WriteRequest {
  sequelize: Sequelize;
  accountId: number;
  /** Parsed Idempotency-Key, if the client sent one. */
  key: string | undefined;
  fingerprint: string;
  instance: string;
  requestId: string;
  now: Date;
  ttlHours: number;
  /** The command. Convention: it throws its 409/422 before it writes anything. */
  execute: (db: Executor) => Promise<Reply>;
}

/** Outcomes the handler itself returned that a retry must see again (CONTRACT §7). */
const isStoredProblem = (error: unknown): error is ProblemError =>
  error instanceof ProblemError && (error.status === 409 || error.status === 422);

/**
 * Runs one write in one transaction: the key's claim, the state change (with its outbox events) and the
 * stored outcome commit together or not at all. A completed key replays its stored bytes with no effect.
 */
export async function runWrite(request: WriteRequest): Promise<SerializedReply> {
  const { key } = request;
  return request.sequelize.transaction(async (transaction) => {
    const db: Executor = { sequelize: request.sequelize, transaction };
    if (key !== undefined) {
      const since = new Date(request.now.getTime() - request.ttlHours * 3_600_000);
      const claim = await claimKey(db, request.accountId, key, since);
      if (!claim.locked) {
        throw problem('IDEMPOTENCY_KEY_IN_USE', 'A request with this Idempotency-Key is still running; retry shortly.', {
          headers: { 'Retry-After': '1' },
        });
      }
      if (claim.fingerprint !== null && claim.status_code !== null && claim.body !== null) {
        if (claim.fingerprint !== request.fingerprint) {
          throw problem('IDEMPOTENCY_KEY_REUSED', 'This Idempotency-Key was used for a different request.');
        }
        return { status: claim.status_code, text: claim.body === '' ? null : claim.body, headers: {}, replayed: true };
      }
    }
    let outcome: SerializedReply;
    try {
      outcome = serializeReply(await request.execute(db));
    } catch (error) {
      if (key === undefined || !isStoredProblem(error)) throw error;
      outcome = serializeProblem(error, request.instance, request.requestId);
    }
    if (key !== undefined) {
      await saveOutcome(db, {
        accountId: request.accountId,
        key,
        fingerprint: request.fingerprint,
        status: outcome.status,
        body: outcome.text ?? '',
        now: request.now,
      });
    }
    return outcome;
  });
}
