/**
 * The peer: the person create written as a plain koa + pg server (`../shared/peer/server.mjs`: one
 * transaction of 7 round trips, no validation, no problem+json, no scopes, sites check or replay), the
 * floor of what the endpoint costs. It is not part of this repository (its licence is not ours to give):
 * the bench copies its one file into `.data/bench-peer/`, where it finds koa, @koa/router and pg in our
 * node_modules, and starts it on the bench's PostgreSQL in a database of its own (its tables would
 * collide with ours). Then the API's create and the peer's run in interleaved rounds of the same closed
 * loop at the same connection count, so the machine's drift falls on both alike.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import { ensureDatabase } from '../server/src/db/database';
import { freePort, withDatabase } from '../server/src/postgres/embeddedPostgres';
import type { World } from '../test/support/factories';
import { type LoadResult, closedLoop, mergeResults } from './load';

/** Where the peer's `server.mjs` is (BENCH_PEER_DIR), by default `../shared/peer` beside the repository. */
export const peerDir = () => path.resolve(process.env.BENCH_PEER_DIR || '../shared/peer');

export interface RunningPeer {
  baseUrl: string;
  token: string;
  siteId: number;
  /** Its process, for the CPU it spends (bench/processCpu.ts). */
  pid: number;
  stop: () => Promise<void>;
}

async function post<T>(baseUrl: string, route: string, body: unknown): Promise<T> {
  const response = await fetch(`${baseUrl}${route}`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify(body),
  });
  if (response.status !== 201) throw new Error(`peer ${route}: HTTP ${response.status}`);
  return (await response.json()) as T;
}

async function waitReady(baseUrl: string, child: ChildProcess, output: () => string): Promise<void> {
  const deadline = Date.now() + 30_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`the peer exited while starting:\n${output()}`);
    const ready = await fetch(`${baseUrl}/readyz`).then(
      (response) => response.ok,
      () => false,
    );
    if (ready) return;
    if (Date.now() > deadline) throw new Error(`the peer did not start in 30 s:\n${output()}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** Starts the peer on `serverUrl`'s PostgreSQL, provisions an account, a site and a token through its admin routes. */
export async function startPeer(serverUrl: string): Promise<RunningPeer> {
  const copy = path.resolve('.data/bench-peer');
  await fs.mkdir(copy, { recursive: true });
  await fs.copyFile(path.join(peerDir(), 'server.mjs'), path.join(copy, 'server.mjs'));
  await ensureDatabase(serverUrl, 'gatehouse_bench_peer');
  const port = await freePort();
  const child = spawn(process.execPath, [path.join(copy, 'server.mjs')], {
    env: {
      ...process.env,
      DATABASE_URL: withDatabase(serverUrl, 'gatehouse_bench_peer'),
      PORT: String(port),
      HOST: '127.0.0.1',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const baseUrl = `http://127.0.0.1:${port}`;
  const stop = async () => {
    child.kill('SIGTERM');
    await exited;
  };
  try {
    await waitReady(baseUrl, child, () => output);
    const { accountId } = await post<{ accountId: number }>(baseUrl, '/v1/admin/accounts', { name: 'Bench' });
    const { siteId } = await post<{ siteId: number }>(baseUrl, `/v1/admin/accounts/${accountId}/sites`, {
      name: 'Bench',
    });
    const { token } = await post<{ token: string }>(baseUrl, `/v1/admin/accounts/${accountId}/tokens`, {});
    return { baseUrl, token, siteId, pid: child.pid ?? 0, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}

/** The body of the `index`th person create of a loop (the peer's and the API's alike). */
export const createBody = (index: number) =>
  JSON.stringify({ person: { firstName: `Peer${index}`, lastName: 'Visitor' } });

/** Where and as whom creates are posted: a site of the API or of the peer, with a token for it. */
export interface CreateTarget {
  baseUrl: string;
  siteId: number;
  token: string;
}

/** A closed loop of person creates at `target`, each with an Idempotency-Key of its own when `keyed`. */
export function loopCreates(
  target: CreateTarget,
  options: { connections: number; durationMs: number; keyed: boolean },
): Promise<LoadResult> {
  return closedLoop({
    baseUrl: target.baseUrl,
    connections: options.connections,
    durationMs: options.durationMs,
    expectStatus: 201,
    next: (index) => ({
      method: 'POST',
      path: `/v1/sites/${target.siteId}/checkins/people`,
      headers: {
        Authorization: `Bearer ${target.token}`,
        'Content-Type': 'application/json',
        ...(options.keyed ? { 'Idempotency-Key': randomUUID() } : {}),
      },
      body: createBody(index),
    }),
  });
}

export interface PeerComparison {
  connections: number;
  peer: LoadResult;
  create: LoadResult;
  createKeyed: LoadResult;
  /** The API's create over the peer's, unkeyed and keyed (the peer writes a key's row either way). */
  ratio: number;
  keyedRatio: number;
  /** The unkeyed ratio round by round: its spread is the noise of this run. */
  rounds: number[];
  /** The keyed ratio round by round (the goal's: the peer writes a key's row for every create). */
  keyedRounds: number[];
}

/**
 * `rounds` interleaved rounds of (peer, create, keyed create) at `connections`, with the same body; each
 * request of the peer and of the keyed create with an Idempotency-Key of its own.
 */
export async function comparePeer(input: {
  baseUrl: string;
  world: World;
  peer: RunningPeer;
  connections: number;
  durationMs: number;
  rounds: number;
  /** Unmeasured, split between the two servers first, so neither is timed while its JIT and caches are cold. */
  warmupMs: number;
}): Promise<PeerComparison> {
  const run = (
    baseUrl: string,
    siteId: number,
    token: string,
    keyed: boolean,
    durationMs = input.durationMs / input.rounds,
  ) => loopCreates({ baseUrl, siteId, token }, { connections: input.connections, durationMs, keyed });
  if (input.warmupMs > 0) {
    await run(input.peer.baseUrl, input.peer.siteId, input.peer.token, true, input.warmupMs / 2);
    await run(input.baseUrl, input.world.siteId, input.world.token, true, input.warmupMs / 2);
  }
  const runs: [LoadResult[], LoadResult[], LoadResult[]] = [[], [], []];
  for (let round = 0; round < input.rounds; round += 1) {
    runs[0].push(await run(input.peer.baseUrl, input.peer.siteId, input.peer.token, true));
    runs[1].push(await run(input.baseUrl, input.world.siteId, input.world.token, false));
    runs[2].push(await run(input.baseUrl, input.world.siteId, input.world.token, true));
  }
  const [peer, create, createKeyed] = runs.map((results) => ({
    ...mergeResults(results),
    latencies: undefined,
  })) as [LoadResult, LoadResult, LoadResult];
  return {
    connections: input.connections,
    peer,
    create,
    createKeyed,
    ratio: create.perSecond / peer.perSecond,
    keyedRatio: createKeyed.perSecond / peer.perSecond,
    rounds: runs[1].map((result, index) => result.perSecond / (runs[0][index]?.perSecond ?? Number.NaN)),
    keyedRounds: runs[2].map((result, index) => result.perSecond / (runs[0][index]?.perSecond ?? Number.NaN)),
  };
}
