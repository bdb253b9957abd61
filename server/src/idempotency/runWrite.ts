import type { Sequelize } from 'sequelize';
import type { Executor } from '../db/query';
import { ProblemError, problem } from '../errors/problem';
import type { Reply } from '../routes/define';
import { type SerializedReply, serializeProblem, serializeReply } from './serialized';
import { type StoredOutcome, findOutcome, saveOutcome } from './store';

export interface WriteRequest {
  sequelize: Sequelize;
  accountId: number;
  /** Parsed Idempotency-Key, if the client sent one. */
  key: string | undefined;
  /** The key's stored outcome as read with the token (before any transaction). */
  stored: StoredOutcome | undefined;
  fingerprint: string;
  instance: string;
  requestId: string;
  now: Date;
  /** The start of the retention window: older records count as absent. */
  since: Date;
  /** The command. Convention: it throws its 409/422 before it writes anything. */
  execute: (db: Executor) => Promise<Reply>;
}

/** Outcomes the handler itself returned that a retry must see again (CONTRACT §7). */
const isStoredProblem = (error: unknown): error is ProblemError =>
  error instanceof ProblemError && (error.status === 409 || error.status === 422);

const keyInUse = () =>
  problem('IDEMPOTENCY_KEY_IN_USE', 'A request with this Idempotency-Key is still running; retry shortly.', {
    headers: { 'Retry-After': '1' },
  });

/** Rolls the transaction back because another request with the same key committed first. */
class KeyTakenMeanwhile extends Error {}

function replay(stored: StoredOutcome, fingerprint: string): SerializedReply {
  if (stored.fingerprint !== fingerprint) {
    throw problem('IDEMPOTENCY_KEY_REUSED', 'This Idempotency-Key was used for a different request.');
  }
  return { status: stored.status, text: stored.body === '' ? null : stored.body, headers: {}, replayed: true };
}

/**
 * Runs one write in one transaction: the state change (with its outbox events) and the key's stored
 * outcome commit together or not at all. A completed key replays its stored bytes with no effect; two
 * requests racing with one key leave exactly one effect (the loser rolls back and replays, or gets 409).
 */
export async function runWrite(request: WriteRequest): Promise<SerializedReply> {
  const { key } = request;
  if (key !== undefined && request.stored) return replay(request.stored, request.fingerprint);
  try {
    return await request.sequelize.transaction(async (transaction) => {
      const db: Executor = { sequelize: request.sequelize, transaction };
      let outcome: SerializedReply;
      try {
        outcome = serializeReply(await request.execute(db));
      } catch (error) {
        if (key === undefined || !isStoredProblem(error)) throw error;
        outcome = serializeProblem(error, request.instance, request.requestId);
      }
      if (key === undefined) return outcome;
      const saved = await saveOutcome(db, {
        accountId: request.accountId,
        key,
        fingerprint: request.fingerprint,
        status: outcome.status,
        body: outcome.text ?? '',
        now: request.now,
        since: request.since,
      });
      if (saved === 'in_use') throw keyInUse();
      if (saved === 'taken') throw new KeyTakenMeanwhile();
      return outcome;
    });
  } catch (error) {
    if (!(error instanceof KeyTakenMeanwhile) || key === undefined) throw error;
    const stored = await findOutcome({ sequelize: request.sequelize }, request.accountId, key, request.since);
    if (!stored) throw keyInUse();
    return replay(stored, request.fingerprint);
  }
}
