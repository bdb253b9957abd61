/**
 * The write paths under closed-loop load: person create (with and without Idempotency-Key), break start,
 * break end, checkout, vehicle entry and exit, at each connection count; and the database ceiling of a
 * create (bench/dbCeiling.ts) at the same concurrency, interleaved round by round with the API creates so
 * the machine's drift falls on both alike. Each action works on targets an earlier phase made: breaks
 * start on the check-ins the creates returned, end on those whose break started, and so on.
 */
import { randomUUID } from 'node:crypto';
import type { World } from '../test/support/factories';
import { recordCreate, replayCreates } from './dbCeiling';
import { type LoadRequest, type LoadResult, closedLoop, mergeResults } from './load';

export interface WriteCase {
  name: string;
  connections: number;
  result: LoadResult;
}

export interface WriteReport {
  cases: WriteCase[];
  /**
   * Per connection count: API create req/s over the database ceiling's (target ≥ 0.60), over all rounds; and
   * the same ratio round by round (each round's creates over that round's ceiling replay), whose
   * spread shows how far the machine's noise moves the one number.
   */
  ceilingRatios: Array<{ connections: number; plain: number; keyed: number; plainRounds: number[] }>;
  /** Per connection count: keyed create req/s over unkeyed (target > 0.80). */
  idempotencyRatios: Array<{ connections: number; ratio: number }>;
}

export const CASES = {
  ceiling: 'DB ceiling: create SQL via pg',
  ceilingKeyed: 'DB ceiling: keyed create SQL via pg',
  create: 'create person',
  createKeyed: 'create person + Idempotency-Key',
  breakStart: 'break start (keyed)',
  breakEnd: 'break end (keyed)',
  checkout: 'checkout (keyed)',
  vehicleEntry: 'vehicle entry, unknown plate (keyed)',
  vehicleExit: 'vehicle exit (keyed)',
} as const;

/** A queue of ids a phase acts on: each request takes the next one; a phase ends early when it runs dry. */
class Targets {
  private readonly ids: number[] = [];
  private next = 0;
  push(id: number): void {
    this.ids.push(id);
  }
  take(): number | undefined {
    return this.ids[this.next++];
  }
  /** What is left, for a later phase to use. */
  rest(): number[] {
    return this.ids.slice(this.next);
  }
}

const idOf = (body: string): number | undefined => {
  const parsed = JSON.parse(body) as { checkinId?: unknown };
  return typeof parsed.checkinId === 'number' ? parsed.checkinId : undefined;
};

export async function measureWrites(input: {
  baseUrl: string;
  databaseUrl: string;
  world: World;
  connectionCounts: number[];
  durationMs: number;
  rounds: number;
  /** Unmeasured creates and ceiling replays first, so neither side is timed while its JIT and caches are cold. */
  warmupMs: number;
}): Promise<WriteReport> {
  const { world } = input;
  const people = `/v1/sites/${world.siteId}/checkins/people`;
  const vehicles = `/v1/sites/${world.siteId}/checkins/vehicles`;
  const auth = { Authorization: `Bearer ${world.token}` };
  const keyed = () => ({ ...auth, 'Idempotency-Key': randomUUID() });
  const personBody = (index: number) => JSON.stringify({ person: { firstName: `Bench${index}`, lastName: 'Visitor' } });
  const recordInput = { databaseUrl: input.databaseUrl, path: people, token: world.token, body: personBody(0) };
  const recorded = await recordCreate(recordInput);
  const recordedKeyed = await recordCreate({ ...recordInput, key: `record-${randomUUID()}` });

  if (input.warmupMs > 0) {
    const connections = Math.max(...input.connectionCounts);
    await replayCreates({ databaseUrl: input.databaseUrl, recorded, connections, durationMs: input.warmupMs / 2 });
    await closedLoop({
      baseUrl: input.baseUrl,
      connections,
      durationMs: input.warmupMs / 2,
      expectStatus: 201,
      next: (index) => ({ method: 'POST', path: people, headers: keyed(), body: personBody(index) }),
    });
  }

  const cases: WriteCase[] = [];
  const ceilingRatios: WriteReport['ceilingRatios'] = [];
  const idempotencyRatios: WriteReport['idempotencyRatios'] = [];
  let plates = 0;
  for (const connections of input.connectionCounts) {
    const load = (
      durationMs: number,
      expectStatus: number,
      next: (index: number) => LoadRequest | undefined,
      collect?: Targets,
    ) =>
      closedLoop({
        baseUrl: input.baseUrl,
        connections,
        durationMs,
        expectStatus,
        next,
        onResponse: collect
          ? (_request, status, body) => {
              const id = status === expectStatus ? idOf(body) : undefined;
              if (id !== undefined) collect.push(id);
            }
          : undefined,
      });
    // Creates: ROUNDS of (ceiling, ceiling keyed, create, create keyed), so their ratios share the same drift.
    const created = new Targets();
    const slice = input.durationMs / input.rounds;
    const runs: LoadResult[][] = [[], [], [], []];
    for (let round = 0; round < input.rounds; round += 1) {
      runs[0]?.push(await replayCreates({ databaseUrl: input.databaseUrl, recorded, connections, durationMs: slice }));
      runs[1]?.push(
        await replayCreates({
          databaseUrl: input.databaseUrl,
          recorded: recordedKeyed,
          connections,
          durationMs: slice,
        }),
      );
      runs[2]?.push(
        await load(
          slice,
          201,
          (index) => ({ method: 'POST', path: people, headers: auth, body: personBody(index) }),
          created,
        ),
      );
      runs[3]?.push(
        await load(
          slice,
          201,
          (index) => ({ method: 'POST', path: people, headers: keyed(), body: personBody(index) }),
          created,
        ),
      );
    }
    const [ceiling, ceilingKeyed, create, createKeyed] = runs.map(mergeResults) as [
      LoadResult,
      LoadResult,
      LoadResult,
      LoadResult,
    ];
    const plainRounds = (runs[2] ?? []).map(
      (round, index) => round.perSecond / (runs[0]?.[index]?.perSecond ?? Number.NaN),
    );
    ceilingRatios.push({
      connections,
      plain: create.perSecond / ceiling.perSecond,
      keyed: createKeyed.perSecond / ceilingKeyed.perSecond,
      plainRounds,
    });
    idempotencyRatios.push({ connections, ratio: createKeyed.perSecond / create.perSecond });

    const onBreak = new Targets();
    const backIn = new Targets();
    const visits = new Targets();
    const action = (suffix: string, method: string, from: Targets) => () => {
      const id = from.take();
      return id === undefined ? undefined : { method, path: `${people}/${id}${suffix}`, headers: keyed(), body: '{}' };
    };
    const breakStart = await load(input.durationMs, 200, action('/breaks/start', 'POST', created), onBreak);
    const breakEnd = await load(input.durationMs, 200, action('/breaks/end', 'POST', onBreak), backIn);
    // Checkout takes the check-ins back from their break first, then any the break phases did not reach.
    const leaving = new Targets();
    for (const id of [...backIn.rest(), ...onBreak.rest(), ...created.rest()]) leaving.push(id);
    const checkout = await load(input.durationMs, 200, action('', 'PATCH', leaving));
    const vehicleEntry = await load(
      input.durationMs,
      201,
      () => ({
        method: 'POST',
        path: vehicles,
        headers: keyed(),
        body: JSON.stringify({ licensePlate: `B${process.pid % 1000}X${++plates}` }),
      }),
      visits,
    );
    const vehicleExit = await load(input.durationMs, 200, () => {
      const id = visits.take();
      return id === undefined
        ? undefined
        : { method: 'PATCH', path: `${vehicles}/${id}`, headers: keyed(), body: '{}' };
    });
    const measured: Array<[string, LoadResult]> = [
      [CASES.ceiling, ceiling],
      [CASES.ceilingKeyed, ceilingKeyed],
      [CASES.create, create],
      [CASES.createKeyed, createKeyed],
      [CASES.breakStart, breakStart],
      [CASES.breakEnd, breakEnd],
      [CASES.checkout, checkout],
      [CASES.vehicleEntry, vehicleEntry],
      [CASES.vehicleExit, vehicleExit],
    ];
    for (const [name, result] of measured)
      cases.push({ name, connections, result: { ...result, latencies: undefined } });
  }
  return { cases, ceilingRatios, idempotencyRatios };
}
