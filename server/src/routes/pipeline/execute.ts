import type { Context } from 'koa';
import { type AuditEntry, OPERATOR_ACTOR, writeAudit } from '../../audit/record';
import { principalKey } from '../../auth/principal';
import type { ResolvedDeps } from '../../context';
import type { Executor } from '../../db/query';
import type { Sql } from '../../db/sql';
import { requestFingerprint } from '../../idempotency/key';
import { runWrite } from '../../idempotency/runWrite';
import { visitIdempotencyKey } from '../../auth/visitAuth';
import { type SerializedReply, serializeReply } from '../../idempotency/serialized';
import type { HandlerContext, Reply, Route } from '../define';
import { closeStream, sendStream } from '../sendStream';
import type { Caller } from './authenticateCaller';
import type { Received, ValidInput } from './receive';

type AnyHandlerContext = HandlerContext<unknown, unknown, unknown>;

/**
 * The route's audit entry for a reply: only for a change that succeeded, by a token, a user, or the
 * management API's operator (whose record names the account the change belongs to).
 */
function auditEntryOf(route: Route, ctx: AnyHandlerContext, reply: Reply): AuditEntry | undefined {
  if (!route.audit || reply.status >= 300) return undefined;
  const record = route.audit(ctx, reply.body);
  const operator = route.auth === 'admin';
  const accountId = operator ? record?.accountId : ctx.principal.accountId;
  if (!record || !accountId) return undefined;
  return {
    ...record,
    accountId,
    actor: operator ? OPERATOR_ACTOR : ctx.principal.actor,
    at: ctx.now,
    requestId: ctx.requestId,
  };
}

/** Runs a route's precheck; what it throws is kept to be thrown in the command's place. */
async function precheckRefusal(route: Route, ctx: AnyHandlerContext): Promise<{ error: unknown } | undefined> {
  if (!route.precheck) return undefined;
  try {
    await route.precheck(ctx);
    return undefined;
  } catch (error) {
    return { error };
  }
}

/** A read (GET, or a search): the handler on the pool, its audit row if it has one (an export), and a stream sent as it comes. */
async function read(route: Route, ctx: AnyHandlerContext, koa: Context, deps: ResolvedDeps) {
  const reply = await route.handler(ctx);
  const entry = auditEntryOf(route, ctx, reply);
  if (entry)
    await writeAudit(ctx.db, entry).catch(async (error: unknown) => {
      await closeStream(reply);
      throw error;
    });
  if (!reply.stream) return serializeReply(reply);
  sendStream(koa, reply, reply.stream, deps.log);
  return undefined;
}

/**
 * Step 3, idempotency → transaction → command: a write runs its handler (the command) and its audit row in
 * one transaction or one statement, with the Idempotency-Key's record when the route takes one
 * (idempotency/runWrite.ts); public routes (sign-in, one-time links) run on the pool, their commands deciding
 * what commits when; reads run on the pool. Answers what to send, or nothing when a stream was sent.
 */
export async function execute(
  request: Received,
  caller: Caller,
  input: ValidInput,
  koa: Context,
  deps: ResolvedDeps,
  /** SQL that confirms a caller not yet confirmed, within the write's statement (rememberedCaller.ts). */
  callerCheck?: Sql,
): Promise<SerializedReply | undefined> {
  const { route } = request;
  const { principal, site, visit } = caller;
  const handlerContext = (db: Executor, attempt = 1): AnyHandlerContext => ({
    params: request.params,
    query: input.query,
    body: input.body,
    principal,
    site,
    db,
    now: request.now,
    requestId: request.requestId,
    deps,
    koa,
    attempt,
    visit,
  });
  const pool: Executor = deps.database;
  if (!route.write) return read(route, handlerContext(pool), koa, deps);
  if (route.auth === 'none') return serializeReply(await route.handler(handlerContext(pool)));
  // Not for a replay, which answers what was stored whatever the check would say now. Its refusal is the
  // command's (thrown where the handler would throw it), so it is stored under the key like any other 422.
  const refused = caller.stored === undefined ? await precheckRefusal(route, handlerContext(pool)) : undefined;
  const { key } = request;
  return runWrite({
    db: pool,
    accountId: principal.accountId,
    // A phone's keys are apart from the account's tokens' (auth/visitAuth.ts).
    key: key !== undefined && visit ? visitIdempotencyKey(key) : key,
    stored: caller.stored,
    // Site routes: any token with the site may replay (a kiosk whose token was rotated mid-retry, say).
    // Account-level routes answer by the caller's sites (a subscription, with its secret): per token.
    // A phone's request is its own: another phone (another key) with the same Idempotency-Key gets a 422.
    fingerprint:
      key === undefined
        ? ''
        : requestFingerprint(
            koa.method,
            koa.path,
            input.sent,
            visit ? visit.keyHash?.toString('hex') : site === undefined ? principalKey(principal) : undefined,
          ),
    legacyFingerprint:
      key === undefined || site !== undefined ? undefined : requestFingerprint(koa.method, koa.path, input.sent),
    instance: koa.path,
    requestId: request.requestId,
    now: request.now,
    since: request.since,
    atomicity: route.atomicity,
    execute: async (db, attempt) => {
      if (refused) throw refused.error;
      return route.handler(handlerContext(db, attempt));
    },
    audit: (reply, db) => auditEntryOf(route, handlerContext(db), reply),
    callerCheck,
  });
}
