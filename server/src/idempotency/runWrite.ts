import { type AuditEntry, auditCte, writeAudit } from '../audit/record';
import { type Executor, inTransaction, queryOne } from '../db/query';
import { type Sql, empty, sql } from '../db/sql';
import { ProblemError, problem } from '../errors/problem';
import type { Reply, WriteParts, WriteStatement } from '../reply';
import { findOutcome, type StoredOutcome } from './lookup';
import { type SerializedReply, serializeProblem, serializeReply } from './serialized';
import { type OutcomeRecord, isStaleWrite, keyClaim, noKey, saveOutcome, saveResultOf, staleCheck } from './store';

export interface WriteRequest {
  /** The pool: the runner takes its transaction from it. */
  db: Executor;
  accountId: number;
  /** Parsed Idempotency-Key, if the client sent one. */
  key: string | undefined;
  /** The key's stored outcome as read with the caller (before any transaction). */
  stored: StoredOutcome | undefined;
  fingerprint: string;
  /**
   * A fingerprint as an earlier version made it for this request (without the token), still accepted for
   * records it stored: they replay as they did until they expire, rather than turning into 422s on upgrade.
   */
  legacyFingerprint?: string;
  instance: string;
  requestId: string;
  now: Date;
  /** The start of the retention window: older records count as absent. */
  since: Date;
  atomicity: 'transaction' | 'statement';
  /** The command, run for the `attempt`th time. Convention: it throws its 409/422 before it writes anything. */
  execute: (db: Executor, attempt: number) => Promise<Reply>;
  /** The audit entry of the command's reply, if the route records one (`db`: where the command ran). */
  audit?: (reply: Reply, db: Executor) => AuditEntry | undefined;
  /**
   * SQL true while the caller is still who the request was planned for (a remembered token:
   * routes/pipeline/rememberedCaller.ts). With it, the statement writes nothing unless it holds, and
   * whatever the runner cannot answer for sure without the caller confirmed (a refusal by the command,
   * the key claimed by another request, a caller that changed) throws CallerUnconfirmed, having written
   * nothing: the request then takes the full steps.
   */
  callerCheck?: Sql;
}

/** A write planned for a remembered caller that was not written; `changed`: the caller is no longer as remembered. */
export class CallerUnconfirmed extends Error {
  constructor(readonly changed: boolean) {
    super('the caller was not confirmed; nothing was written');
  }
}

/** Outcomes the handler itself returned that a retry must see again (docs/api.md, Idempotency). */
const isStoredProblem = (error: unknown): error is ProblemError =>
  error instanceof ProblemError && (error.status === 409 || error.status === 422);

const keyInUse = () =>
  problem('IDEMPOTENCY_KEY_IN_USE', 'A request with this Idempotency-Key is still running; retry shortly.', {
    headers: { 'Retry-After': '1' },
  });

/** Rolls the transaction back because another request with the same key committed first. */
class KeyTakenMeanwhile extends Error {}

function replay(
  stored: StoredOutcome,
  request: Pick<WriteRequest, 'fingerprint' | 'legacyFingerprint'>,
): SerializedReply {
  if (stored.fingerprint !== request.fingerprint && stored.fingerprint !== request.legacyFingerprint) {
    throw problem('IDEMPOTENCY_KEY_REUSED', 'This Idempotency-Key was used for a different request.');
  }
  return {
    status: stored.status,
    text: stored.body === '' ? null : stored.body,
    headers: stored.headers,
    replayed: true,
  };
}

/** Runs the command; a 409/422 it returns becomes the outcome when there is a key to store it under. */
async function outcomeOf(
  request: WriteRequest,
  db: Executor,
  attempt = 1,
): Promise<{ outcome: SerializedReply; reply?: Reply }> {
  try {
    const reply = await request.execute(db, attempt);
    return { outcome: serializeReply(reply), reply };
  } catch (error) {
    if (request.callerCheck) throw new CallerUnconfirmed(false);
    if (request.key === undefined || !isStoredProblem(error)) throw error;
    return { outcome: serializeProblem(error, request.instance, request.requestId) };
  }
}

const recordOf = (request: WriteRequest, key: string, outcome: SerializedReply): OutcomeRecord => ({
  accountId: request.accountId,
  key,
  fingerprint: request.fingerprint,
  status: outcome.status,
  body: outcome.text ?? '',
  headers: outcome.headers,
  now: request.now,
  since: request.since,
});

/** Only a change that succeeded is audited. */
const auditOf = (request: WriteRequest, reply: Reply, db: Executor) =>
  reply.status < 300 ? request.audit?.(reply, db) : undefined;

/**
 * What the runner adds to a command's statement (reply.ts, WriteParts): the caller's check, if any, the
 * key's claim, and the audit row.
 */
function partsOf(
  callerCheck: Sql | undefined,
  record: OutcomeRecord | undefined,
  audit: AuditEntry | undefined,
): WriteParts {
  const callerOk = callerCheck ? sql`(SELECT ok FROM caller)` : undefined;
  const claim = record ? keyClaim(record, callerOk) : noKey(callerOk);
  return {
    claim: callerCheck ? sql`caller AS (SELECT ${callerCheck} AS ok), ${claim.ctes}` : claim.ctes,
    claimed: claim.claimed,
    audit: auditCte(audit),
    outcome: (applied) =>
      sql`${claim.locked} AS locked, ${claim.claimed} AS saved, ${staleCheck(claim, applied)}${
        callerOk ? sql`, ${callerOk} AS caller` : empty
      }`,
  };
}

/** How often a statement-mode command runs again after its row changed under it (then 503, retry later). */
const STALE_ATTEMPTS = 5;
/** Before each new attempt, a random pause of up to this many milliseconds times the attempts so far. */
const STALE_JITTER_MS = 2;

/**
 * Statement mode: the handler read what it needed; its write and the key's record are one statement. A
 * write conditional on what was read that finds the row changed is undone whole, and the command runs
 * again on the fresh row (which may now answer 409).
 */
async function runAsStatement(request: WriteRequest): Promise<SerializedReply> {
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await runStatementOnce(request, attempt);
    } catch (error) {
      if (!isStaleWrite(error)) throw error;
      if (attempt >= STALE_ATTEMPTS) {
        throw problem('UNAVAILABLE', 'The check-in is changing too often right now; retry shortly.', {
          headers: { 'Retry-After': '1' },
        });
      }
      // Racers that all lost to one winner should not all come back at the same instant.
      await new Promise((resolve) => setTimeout(resolve, Math.random() * STALE_JITTER_MS * attempt));
    }
  }
}

async function runStatementOnce(request: WriteRequest, attempt: number): Promise<SerializedReply> {
  const pool = request.db;
  const { outcome, reply } = await outcomeOf(request, pool, attempt);
  const record = request.key === undefined ? undefined : recordOf(request, request.key, outcome);
  if (!reply?.write) {
    if (request.callerCheck) throw new CallerUnconfirmed(false);
    // A refusal to store under the key (or a reply that writes nothing): the record alone.
    const saved = record ? await saveOutcome(pool, record) : 'saved';
    return settled(saved, outcome);
  }
  const parts = partsOf(request.callerCheck, record, auditOf(request, reply, pool));
  // One text per route's write and shape (a handful in all): prepared, so PostgreSQL plans it once per connection.
  const row = await queryOne<{ locked: boolean; saved: boolean; caller?: boolean }>(pool, reply.write(parts), {
    prepare: true,
  });
  const saved = saveResultOf(row);
  if (request.callerCheck && saved !== 'saved') throw new CallerUnconfirmed(row?.caller === false);
  return settled(saved, outcome);
}

/** Transaction mode: the state change (with its outbox events), its audit row and the key's record commit together. */
async function runInTransaction(request: WriteRequest): Promise<SerializedReply> {
  return inTransaction(request.db, async (db) => {
    const { outcome, reply } = await outcomeOf(request, db);
    if (reply?.write) throw new Error('Reply.write is for statement-mode routes');
    const audit = reply && auditOf(request, reply, db);
    if (audit) await writeAudit(db, audit);
    if (request.key === undefined) return outcome;
    return settled(await saveOutcome(db, recordOf(request, request.key, outcome)), outcome);
  });
}

/** The outcome, once the key's record is in; else nothing of this request is kept. */
function settled(saved: 'saved' | 'in_use' | 'taken', outcome: SerializedReply): SerializedReply {
  if (saved === 'in_use') throw keyInUse();
  if (saved === 'taken') throw new KeyTakenMeanwhile();
  return outcome;
}

/**
 * Runs one write atomically with its Idempotency-Key record (and its audit row): all are kept or none is. A
 * completed key replays its stored bytes with no effect; two requests racing with one key leave exactly one
 * effect (the loser keeps nothing and replays the winner's outcome, or gets 409 IDEMPOTENCY_KEY_IN_USE).
 */
export async function runWrite(request: WriteRequest): Promise<SerializedReply> {
  const { key } = request;
  if (key !== undefined && request.stored) return replay(request.stored, request);
  try {
    return request.atomicity === 'statement' ? await runAsStatement(request) : await runInTransaction(request);
  } catch (error) {
    if (!(error instanceof KeyTakenMeanwhile) || key === undefined) throw error;
    const stored = await findOutcome(request.db, request.accountId, key, request.since);
    if (!stored) throw keyInUse();
    return replay(stored, request);
  }
}

/**
 * Runs a command's write statement on its own, with no key of its own (a host's decision link:
 * commands/hostDecision.ts; a phone's check-in, inside its route's transaction), with its audit row if any.
 * A row changed since the command read it throws a stale write (isStaleWrite), having written nothing.
 */
export async function runKeylessWrite(db: Executor, write: WriteStatement, audit?: AuditEntry): Promise<void> {
  await queryOne(db, write(partsOf(undefined, undefined, audit)), { prepare: true });
}
