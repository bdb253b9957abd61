import type { z } from 'zod';
import type { VehicleCheckin } from '../../../shared/src/schemas/vehicles';
import { type ApiClient, PersonCheckinAnswer, VehicleCheckinAnswer } from '../../../shared/src/client';
import type { HttpOutcome } from '../../../shared/src/client/http';
import { recordEntryOnSite } from '../data/alreadyOnSite';
import type { KioskDatabase } from '../data/database';
import { recordAckInNewerStatus } from '../data/newerStatus';
import { recordAttention, recordRestamp, recordRetry } from '../data/outcomes';
import {
  type ActionError,
  type KeptPersonCheckin,
  type OutboxAction,
  type PersonVisit,
  type VehicleVisit,
  isCreate,
  isVehicleAction,
} from '../data/types';
import { type VisitKind, personVisits, vehicleVisits } from '../data/visitKinds';
import { actionsOf } from '../data/visits';
import type { AckWriter } from './ackWriter';
import { type Reading, readPerson, readVehicle } from './answers';
import { type RetryPolicy, isDue } from './backoff';
import { type StampCheck, decide } from './decide';
import { sendableHeads } from './plateOrder';
import { sendAction } from './requests';
import type { ServerClock } from './serverClock';

export interface PushContext {
  db: KioskDatabase;
  api: ApiClient;
  now: () => number;
  policy: RetryPolicy;
  /** Visits synced at the same time (each visit's own actions always go one after another). */
  concurrency: number;
  isStopped: () => boolean;
  acks: AckWriter;
  /** Told after every attempt whether the server answered at all (the status bar's Online/Offline). */
  onReachability: (reachable: boolean) => void;
  /** To restamp an action refused as stamped in the future: the server's time, the clock correction, new keys. */
  restamping?: { clock: Pick<ServerClock, 'serverNow' | 'correctionMs'>; newKey: () => string };
}

/** After this many attempts in a row without an answer, the pass starts no new visit: the server is away. */
const UNREACHABLE_STREAK = 3;

type Step =
  | { result: 'acknowledged'; checkinId: number }
  /** The refused create named the server's visit it meant (an Entry of a car already on site): the rest goes there. */
  | { result: 'adopted'; checkinId: number }
  | { result: 'restamped' }
  | { result: 'stopped' }
  | { result: 'unreachable' };

/** What an answer needs to judge the action's time (only a refusal is judged). */
function stampCheck(ctx: PushContext, action: OutboxAction, refused: boolean): StampCheck | undefined {
  const clock = ctx.restamping?.clock;
  if (!clock || !refused) return undefined;
  const { occurredAt, deviceAt } = action;
  // Its last attempt was already refused for its time (and restamped): a second refusal is for a person.
  const mayRestamp = action.lastError?.code !== 'OCCURRED_AT_OUT_OF_RANGE';
  return { occurredAt, deviceAt, serverNowMs: clock.serverNow(), correctionMs: clock.correctionMs(), mayRestamp };
}

/** How the kiosk reads the answers to one kind of visit: the client's schema, and what the kiosk keeps of it. */
interface AnswerReading<A, C> {
  schema: z.ZodType<A>;
  read: (answer: A) => Reading<C>;
  /** A refusal whose `current` is the visit the action meant: true when it was written down as such (not for a person). */
  adopt?: (db: KioskDatabase, action: OutboxAction, error: ActionError, current: C, now: number) => Promise<boolean>;
}

const personAnswers: AnswerReading<PersonCheckinAnswer, KeptPersonCheckin> = {
  schema: PersonCheckinAnswer,
  read: readPerson,
};
const vehicleAnswers: AnswerReading<VehicleCheckinAnswer, VehicleCheckin> = {
  schema: VehicleCheckinAnswer,
  read: readVehicle,
  adopt: recordEntryOnSite,
};

/** Writes down the answer to one attempt, whatever it is. */
async function settle<
  V extends PersonVisit | VehicleVisit,
  C extends { checkinId: number; updatedAt: string },
  A extends { checkinId: number },
>(
  ctx: PushContext,
  kind: VisitKind<V, C>,
  answers: AnswerReading<A, C>,
  action: OutboxAction,
  outcome: HttpOutcome<A>,
  acknowledge: (checkin: C) => void,
): Promise<Step> {
  ctx.onReachability(outcome.kind !== 'unreachable');
  const decision = decide(outcome, answers.schema, stampCheck(ctx, action, outcome.kind === 'refused'));
  if (decision.type === 'ack') {
    const { checkinId } = decision.value;
    const reading = answers.read(decision.value);
    if (reading.kept) {
      acknowledge(reading.checkin);
    } else {
      // A vehicle visit the server took to a status newer than this kiosk (a person's is always kept): acknowledged
      // all the same, the server did it (rare: written now, after the earlier ones).
      await ctx.acks.flushed();
      // Not over an earlier acknowledgement that could not be written: that action goes again first, and this one after it.
      if (ctx.acks.failed()) return { result: 'stopped' };
      await recordAckInNewerStatus(ctx.db, kind, action, checkinId, ctx.now());
    }
    return { result: 'acknowledged', checkinId };
  }
  // Rare paths: let the visit's earlier acknowledgements land first, so this write sees them.
  await ctx.acks.flushed();
  const now = ctx.now();
  switch (decision.type) {
    case 'retry':
      await recordRetry(
        ctx.db,
        action,
        decision.error,
        now + ctx.policy.delayMs(action.attempts + 1, decision.retryAfterMs),
      );
      return { result: outcome.kind === 'unreachable' ? 'unreachable' : 'stopped' };
    case 'attention': {
      // A vehicle's `current` in a status newer than this kiosk cannot be shown: the visit keeps what it showed.
      const read = decision.current && answers.read(decision.current);
      const current = read?.kept ? read.checkin : undefined;
      if (current && (await answers.adopt?.(ctx.db, action, decision.error, current, now)))
        return { result: 'adopted', checkinId: current.checkinId };
      await recordAttention(ctx.db, kind, action, decision.error, current, now);
      return { result: 'stopped' };
    }
    case 'revoked':
      // Nothing is written: the action keeps its key and its place, and goes with the token of a new pairing.
      return { result: 'stopped' };
    case 'restamp': {
      const key = ctx.restamping?.newKey();
      if (key === undefined) return { result: 'stopped' };
      const restamped = await recordRestamp(ctx.db, kind, action, {
        occurredAt: decision.occurredAt,
        key,
        error: decision.error,
      });
      return { result: restamped ? 'restamped' : 'stopped' };
    }
  }
}

async function attempt(ctx: PushContext, action: OutboxAction, checkinId: number | undefined): Promise<Step> {
  const sent = await sendAction(ctx.api, action, checkinId);
  return sent.visit === 'person'
    ? settle(ctx, personVisits, personAnswers, action, sent.outcome, (checkin) =>
        ctx.acks.add({ visit: 'person', action, checkin }),
      )
    : settle(ctx, vehicleVisits, vehicleAnswers, action, sent.outcome, (checkin) =>
        ctx.acks.add({ visit: 'vehicle', action, checkin }),
      );
}

/**
 * Sends one visit's actions in order until it has none left or one is not acknowledged. The create
 * goes first; every later action uses the server id its acknowledgement brought.
 */
async function syncVisit(ctx: PushContext, visitId: string): Promise<Step['result']> {
  let actions = await actionsOf(ctx.db, visitId);
  const first = actions[0];
  if (!first) return 'acknowledged';
  const visit = isVehicleAction(first.kind) ? await ctx.db.vehicles.get(visitId) : await ctx.db.people.get(visitId);
  let checkinId = visit?.serverId;
  for (;;) {
    // Queued while we were sending (skipping what is acknowledged but not yet written).
    if (actions.length === 0)
      actions = (await actionsOf(ctx.db, visitId)).filter((action) => !ctx.acks.has(action.seq));
    const action = actions.shift();
    if (!action) return 'acknowledged';
    if (
      ctx.isStopped() ||
      ctx.acks.failed() ||
      action.state !== 'QUEUED' ||
      !isDue(action.nextAttemptAt, ctx.now(), ctx.policy)
    )
      return 'stopped';
    if (!isCreate(action.kind) && checkinId === undefined) {
      // Its create was discarded (which discards this too) or never existed: nothing to send it to.
      const error = {
        status: null,
        code: 'NOT_CREATED',
        message: 'The visit this action belongs to was never created on the server.',
      };
      await (isVehicleAction(action.kind)
        ? recordAttention(ctx.db, vehicleVisits, action, error, undefined, ctx.now())
        : recordAttention(ctx.db, personVisits, action, error, undefined, ctx.now()));
      return 'stopped';
    }
    const step = await attempt(ctx, action, checkinId);
    if (step.result === 'restamped') {
      actions = []; // It goes again at once, under its new key: read it back.
      continue;
    }
    if (step.result !== 'acknowledged' && step.result !== 'adopted') return step.result;
    checkinId = step.checkinId;
  }
}

/** The visits whose first unacknowledged action can be sent now (and is not waiting for another visit's), oldest first. */
async function readyVisits(ctx: PushContext, skip: Set<string>): Promise<string[]> {
  const now = ctx.now();
  return (await sendableHeads(ctx.db, ctx.acks.has))
    .filter((head) => head.state === 'QUEUED' && isDue(head.nextAttemptAt, now, ctx.policy) && !skip.has(head.visitId))
    .map((head) => head.visitId);
}

/**
 * One push pass: up to `concurrency` visits at a time, each in order. A visit tried in this pass is not
 * tried again in it (its retry waits for its backoff), so a pass always ends. 'unreachable': it stopped
 * early because the server did not answer several attempts in a row. 'unrecorded': it stopped early because
 * an answer could not be written down (the device's storage failed); those actions are still queued with
 * their keys, and a later pass sends them again.
 */
export async function pushOutbox(ctx: PushContext): Promise<'done' | 'unreachable' | 'unrecorded'> {
  const tried = new Set<string>();
  let queue: string[] = [];
  let drained = false;
  let refill: Promise<void> | undefined;
  let unreachableStreak = 0;

  const next = async (): Promise<string | undefined> => {
    for (;;) {
      if (ctx.isStopped() || ctx.acks.failed() || unreachableStreak >= UNREACHABLE_STREAK) return undefined;
      const visitId = queue.shift();
      if (visitId !== undefined) {
        if (tried.has(visitId)) continue;
        tried.add(visitId);
        return visitId;
      }
      if (drained) return undefined;
      refill ??= readyVisits(ctx, tried).then((ids) => {
        queue = ids;
        drained = ids.length === 0;
        refill = undefined;
      });
      await refill;
    }
  };

  const worker = async () => {
    for (let visitId = await next(); visitId !== undefined; visitId = await next()) {
      const result = await syncVisit(ctx, visitId);
      unreachableStreak = result === 'unreachable' ? unreachableStreak + 1 : 0;
    }
  };
  // Every worker ends before the pass does, even when one fails: the pass holds the sync lock, and a worker
  // still sending after it ended would run alongside the next pass.
  const ended = await Promise.allSettled(Array.from({ length: Math.max(1, ctx.concurrency) }, worker));
  const written = await ctx.acks.endPass();
  const failed = ended.find((outcome): outcome is PromiseRejectedResult => outcome.status === 'rejected');
  if (failed) throw failed.reason;
  if (written === 'failed') return 'unrecorded';
  return unreachableStreak >= UNREACHABLE_STREAK ? 'unreachable' : 'done';
}
