import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterEach, describe, expect, inject, it } from 'vitest';
import type { Problem } from '../../shared/src/schemas/common';
import type { PersonCheckin } from '../../shared/src/schemas/personCheckins';
import type { Site } from '../../shared/src/schemas/sites';
import { freePort, isAlive as alive, withDatabase } from '../../server/src/postgres/embeddedPostgres';
import { createTestDatabase } from '../support/database';
import { apiClient } from '../support/http';

const ROOT = path.resolve(import.meta.dirname, '../..');
const TOKEN = /ck_[0-9A-Za-z]{36}/;
const INTEGRATOR = /Integrator token[^\n]*?(ck_[0-9A-Za-z]{36})/;
const KIOSK = /Kiosk token[^\n]*?(ck_[0-9A-Za-z]{36})/;
const BANNER = /Gatehouse API listening on http:\/\/127\.0\.0\.1:\d+\/v1/;

interface Running {
  child: ChildProcess;
  stdout: () => string;
  stderr: () => string;
  /** Resolves with the exit code (or the signal's name) once the process is gone. */
  exited: Promise<number | string>;
  baseUrl: string;
  port: number;
}

const started: Running[] = [];
const dataDirs: string[] = [];

/** The environment a person would start it with: no test runner variables, nothing of the settings unless given. */
function environment(overrides: Record<string, string>): NodeJS.ProcessEnv {
  const keep = ['PATH', 'HOME', 'TMPDIR', 'LANG', 'TZ', 'USER'];
  const base = Object.fromEntries(
    keep.flatMap((name) => (process.env[name] === undefined ? [] : [[name, process.env[name]]])),
  );
  return { ...base, NODE_ENV: 'development', HOST: '127.0.0.1', ...overrides };
}

/** Spawns the real server (`node --import tsx server/src/main.ts`), in a process group of its own. */
function spawnServer(overrides: Record<string, string>, port = 0): Running {
  const child = spawn(process.execPath, ['--import', 'tsx', 'server/src/main.ts'], {
    cwd: ROOT,
    env: environment({ PORT: String(port), ...overrides }),
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  let out = '';
  let err = '';
  child.stdout?.on('data', (chunk: Buffer) => {
    out += chunk.toString('utf8');
  });
  child.stderr?.on('data', (chunk: Buffer) => {
    err += chunk.toString('utf8');
  });
  const exited = new Promise<number | string>((resolve) => {
    child.once('exit', (code, signal) => resolve(code ?? signal ?? 'unknown'));
  });
  const running: Running = {
    child,
    stdout: () => out,
    stderr: () => err,
    exited,
    baseUrl: `http://127.0.0.1:${port}`,
    port,
  };
  started.push(running);
  return running;
}

const isRunning = (running: Running) => running.child.exitCode === null && running.child.signalCode === null;

/** Waits until stdout matches, failing early (with the output) if the process exits or the time runs out. */
async function waitForOutput(running: Running, pattern: RegExp, timeoutMs: number): Promise<RegExpMatchArray> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const match = pattern.exec(running.stdout());
    if (match) return match;
    if (!isRunning(running)) {
      throw new Error(
        `server exited (${running.child.exitCode ?? running.child.signalCode}) before ${pattern}:\n${running.stdout()}\n${running.stderr()}`,
      );
    }
    if (Date.now() > deadline)
      throw new Error(`no ${pattern} within ${timeoutMs} ms:\n${running.stdout()}\n${running.stderr()}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** Starts the server on a free port and waits for its banner. */
async function startServer(overrides: Record<string, string>, bannerTimeoutMs = 30_000): Promise<Running> {
  const port = await freePort();
  const running = spawnServer(overrides, port);
  await waitForOutput(running, BANNER, bannerTimeoutMs);
  return running;
}

/** Resolves with the exit code, or fails after `timeoutMs`. */
async function exitWithin(running: Running, timeoutMs: number): Promise<number | string> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new Error(`still running ${timeoutMs} ms later:\n${running.stdout()}\n${running.stderr()}`)),
      timeoutMs,
    );
  });
  try {
    return await Promise.race([running.exited, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

async function stop(running: Running, signal: NodeJS.Signals = 'SIGTERM'): Promise<number | string> {
  if (isRunning(running) && running.child.pid !== undefined) process.kill(running.child.pid, signal);
  return exitWithin(running, 15_000);
}

/** A postgres left behind would hold its data folder; stop it by the pid it wrote. */
async function stopPostgresOf(dataDir: string): Promise<void> {
  const pidFile = await fs.readFile(path.join(dataDir, 'pg', 'postmaster.pid'), 'utf8').catch(() => '');
  const pid = Number(pidFile.split('\n')[0]);
  if (!Number.isInteger(pid) || pid <= 0 || !alive(pid)) return;
  process.kill(pid, 'SIGINT');
  const deadline = Date.now() + 15_000;
  while (alive(pid) && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 100));
}

afterEach(async () => {
  for (const running of started.splice(0)) {
    if (!isRunning(running) || running.child.pid === undefined) continue;
    // Its own group: the server only (an embedded postgres runs in a group of its own and is stopped below).
    try {
      process.kill(-running.child.pid, 'SIGKILL');
    } catch {
      // already gone
    }
    await exitWithin(running, 5_000).catch(() => undefined);
  }
  for (const dataDir of dataDirs.splice(0)) {
    await stopPostgresOf(dataDir);
    await fs.rm(dataDir, { recursive: true, force: true });
  }
});

async function countAccounts(databaseUrl: string): Promise<number> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const result = await client.query<{ count: string }>('SELECT count(*) AS count FROM accounts');
    return Number(result.rows[0]?.count);
  } finally {
    await client.end();
  }
}

/** A database with nothing in it, not even the schema. */
async function createEmptyDatabase(): Promise<string> {
  const serverUrl = inject('pgServerUrl');
  const name = `process_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE ${name}`);
  } finally {
    await admin.end();
  }
  return withDatabase(serverUrl, name);
}

describe('invalid environment', () => {
  const cases: Array<[string, Record<string, string>]> = [
    ['PORT', { PORT: 'abc' }],
    ['LOG_LEVEL', { LOG_LEVEL: 'loud' }],
    ['DATABASE_URL', { DATABASE_URL: 'mysql://x' }],
    ['RATE_LIMIT_PER_MINUTE', { RATE_LIMIT_PER_MINUTE: 'lots' }],
    ['WEBHOOK_ALLOW_PRIVATE_URLS', { WEBHOOK_ALLOW_PRIVATE_URLS: 'maybe' }],
    ['ADMIN_TOKEN', { ADMIN_TOKEN: 'admin-token-0123456789' }],
    ['ADMIN_TOKEN', { ADMIN_TOKEN: 'admin-admin-admin-admin-admin-admin' }],
  ];

  it('exits non-zero with one stderr line naming the variable', { timeout: 90_000 }, async () => {
    const runs = cases.map(([name, env]) => {
      const running = spawnServer({ DATA_DIR: path.join(os.tmpdir(), 'gatehouse-never-used'), ...env });
      // spawnServer sets PORT=0 by default; the case's own PORT wins.
      return { name, running };
    });
    for (const { name, running } of runs) {
      const code = await exitWithin(running, 30_000);
      expect(code, `${name}: ${running.stderr()}`).not.toBe(0);
      expect(typeof code).toBe('number');
      const stderr = running.stderr().trim();
      expect(stderr.split('\n'), `${name} stderr: ${stderr}`).toHaveLength(1);
      expect(stderr).toContain(name);
      expect(stderr).not.toMatch(/\bat\s+\S+\s+\(|node_modules/);
      expect(running.stdout()).not.toMatch(TOKEN);
    }
    await expect(fs.access(path.join(os.tmpdir(), 'gatehouse-never-used'))).rejects.toThrow();
  });

  it(
    'a database that cannot be reached: exits non-zero with one line, no stack trace',
    { timeout: 90_000 },
    async () => {
      const closedPort = await freePort();
      const running = spawnServer({ DATABASE_URL: `postgres://nobody:secret@127.0.0.1:${closedPort}/nothing` });
      const code = await exitWithin(running, 30_000);
      expect(code).not.toBe(0);
      const stderr = running.stderr().trim();
      expect(stderr.split('\n'), stderr).toHaveLength(1);
      expect(stderr).not.toMatch(/\bat\s+\S+\s+\(|node_modules/);
      expect(stderr).not.toContain('secret');
      expect(running.stdout()).not.toMatch(BANNER);
    },
  );
});

describe('with DATABASE_URL', () => {
  it(
    'prints demo tokens, is ready, and the integrator token completes a visit; a second start seeds nothing',
    { timeout: 90_000 },
    async () => {
      const databaseUrl = await createTestDatabase();
      const first = await startServer({ DATABASE_URL: databaseUrl });
      const output = first.stdout();
      expect(output).not.toContain('embedded PostgreSQL');
      const integrator = INTEGRATOR.exec(output)?.[1];
      const kiosk = KIOSK.exec(output)?.[1];
      expect(integrator).toMatch(/^ck_[0-9A-Za-z]{36}$/);
      expect(kiosk).toMatch(/^ck_[0-9A-Za-z]{36}$/);
      expect(kiosk).not.toBe(integrator);

      const anonymous = apiClient(first.baseUrl);
      expect((await anonymous.get('/healthz')).status).toBe(200);
      expect((await anonymous.get('/readyz')).status).toBe(200);
      expect((await anonymous.get<Problem>('/v1/sites')).status).toBe(401);

      const api = apiClient(first.baseUrl, integrator);
      const sites = await api.get<{ data: Site[]; nextCursor: string | null }>('/v1/sites');
      expect(sites.status).toBe(200);
      expect(sites.body.data).toHaveLength(2);
      expect(sites.body.nextCursor).toBeNull();
      const siteId = sites.body.data[0]?.siteId;
      expect(typeof siteId).toBe('number');

      const kioskSites = await apiClient(first.baseUrl, kiosk).get<{ data: Site[] }>('/v1/sites');
      expect(kioskSites.status).toBe(200);
      expect(kioskSites.body.data.map((site) => site.siteId)).toEqual([siteId]);
      // The printed kiosk token is a paired kiosk's: its heartbeat is taken.
      const beat = await apiClient(first.baseUrl, kiosk).post('/v1/kiosk/heartbeat', {
        pending: 0,
        attention: 0,
        appVersion: '0.1.0',
      });
      expect(beat.status).toBe(204);

      const people = `/v1/sites/${siteId}/checkins/people`;
      const created = await api.post<PersonCheckin>(people, { person: { firstName: 'Demo', lastName: 'Visitor' } });
      expect(created.status).toBe(201);
      expect(created.body).toMatchObject({ status: 'IN', entry: { source: 'API' } });
      const item = `${people}/${created.body.checkinId}`;
      const onBreak = await api.post<PersonCheckin>(`${item}/breaks/start`);
      expect(onBreak.status).toBe(200);
      expect(onBreak.body.status).toBe('ON_BREAK');
      const back = await api.post<PersonCheckin>(`${item}/breaks/end`);
      expect(back.status).toBe(200);
      expect(back.body.status).toBe('IN');
      const out = await api.patch<PersonCheckin>(item, {});
      expect(out.status).toBe(200);
      expect(out.body.status).toBe('OUT');
      expect(out.body.breaks).toHaveLength(1);

      expect(await stop(first)).toBe(0);

      const second = await startServer({ DATABASE_URL: databaseUrl });
      expect(second.stdout()).not.toMatch(TOKEN);
      expect(second.stdout()).not.toMatch(/Demo data created/);
      expect(second.stdout()).toMatch(
        /its tokens were shown then, once\. A new token: the console's\n.*API tokens page.*set ADMIN_TOKEN/,
      );
      // The data of the first run is still there, and its token still works.
      const again = apiClient(second.baseUrl, integrator);
      const read = await again.get<PersonCheckin>(item);
      expect(read.status).toBe(200);
      expect(read.body.status).toBe('OUT');
      expect((await again.get<{ data: Site[] }>('/v1/sites')).body.data).toHaveLength(2);
      expect(await countAccounts(databaseUrl)).toBe(1);
      expect(await stop(second)).toBe(0);
    },
  );

  it(
    'prints a setup link while the demo account has no owner: a restart prints a fresh one, and it works once',
    { timeout: 90_000 },
    async () => {
      const SETUP = /Demo Company \(account \d+\): http:\/\/127\.0\.0\.1:\d+\/console\/setup\?code=([A-Za-z0-9_-]{43})/;
      const databaseUrl = await createTestDatabase();
      const first = await startServer({ DATABASE_URL: databaseUrl });
      const stale = SETUP.exec(first.stdout())?.[1];
      expect(stale).toBeDefined();
      expect(await stop(first)).toBe(0);
      const second = await startServer({ DATABASE_URL: databaseUrl });
      const code = SETUP.exec(second.stdout())?.[1] ?? '';
      expect(code).not.toBe(stale);
      const anonymous = apiClient(second.baseUrl);
      expect((await anonymous.get(`/v1/session/links/${stale}`)).status).toBe(404);
      expect((await anonymous.get(`/v1/session/links/${code}`)).body).toEqual({
        kind: 'setup',
        email: null,
        name: null,
        accountName: 'Demo Company',
      });
      const owner = { code, name: 'Olive Owner', email: 'olive@example.com', password: 'olive keeps the keys 2026' };
      const created = await anonymous.post<{ user: { role: string; allSites: boolean } }>('/v1/session/setup', owner);
      expect(created.status).toBe(201);
      expect(created.body.user).toMatchObject({ role: 'owner', allSites: true });
      expect(created.headers.getSetCookie()[0]).toMatch(/^gh_session=/);
      expect((await anonymous.post('/v1/session/setup', { ...owner, email: 'mallory@example.com' })).status).toBe(404);
      expect(await stop(second)).toBe(0);
      const third = await startServer({ DATABASE_URL: databaseUrl });
      expect(third.stdout()).not.toMatch(/console\/setup/);
      expect(await stop(third)).toBe(0);
    },
  );

  it('SEED_DEMO=false and NODE_ENV=production seed nothing', { timeout: 90_000 }, async () => {
    const variants: Array<Record<string, string>> = [{ SEED_DEMO: 'false' }, { NODE_ENV: 'production' }];
    for (const env of variants) {
      const databaseUrl = await createTestDatabase();
      const running = await startServer({ DATABASE_URL: databaseUrl, ...env });
      expect(running.stdout(), JSON.stringify(env)).not.toMatch(TOKEN);
      expect((await apiClient(running.baseUrl).get('/readyz')).status).toBe(200);
      expect(await countAccounts(databaseUrl)).toBe(0);
      expect(await stop(running)).toBe(0);
    }
  });

  it('migrates an empty database before it serves', { timeout: 90_000 }, async () => {
    const databaseUrl = await createEmptyDatabase();
    const running = await startServer({ DATABASE_URL: databaseUrl });
    expect(running.stdout()).toMatch(/migrations applied/);
    expect(running.stdout()).toMatch(INTEGRATOR);
    expect((await apiClient(running.baseUrl).get('/readyz')).status).toBe(200);
    expect(await stop(running)).toBe(0);
  });

  it('SIGTERM: stops accepting, finishes the request in flight, exits 0 within 15 s', { timeout: 90_000 }, async () => {
    const databaseUrl = await createTestDatabase();
    const running = await startServer({ DATABASE_URL: databaseUrl });
    const integrator = INTEGRATOR.exec(running.stdout())?.[1] ?? '';
    const sites = await apiClient(running.baseUrl, integrator).get<{ data: Site[] }>('/v1/sites');
    const siteId = sites.body.data[0]?.siteId;

    // A request whose body is still arriving when the signal comes: it is in flight on the server.
    const body = JSON.stringify({ person: { firstName: 'Late', lastName: 'Leaver' } });
    let resolveResponse: (value: { status: number; text: string }) => void = () => undefined;
    let rejectResponse: (error: Error) => void = () => undefined;
    const response = new Promise<{ status: number; text: string }>((resolve, reject) => {
      resolveResponse = resolve;
      rejectResponse = reject;
    });
    const request = http.request(
      `${running.baseUrl}/v1/sites/${siteId}/checkins/people`,
      {
        method: 'POST',
        agent: new http.Agent({ keepAlive: true }),
        headers: {
          Authorization: `Bearer ${integrator}`,
          'Content-Type': 'application/json',
          'Content-Length': String(Buffer.byteLength(body)),
        },
      },
      (incoming) => {
        const parts: Buffer[] = [];
        incoming.on('data', (chunk: Buffer) => parts.push(chunk));
        incoming.on('end', () =>
          resolveResponse({ status: incoming.statusCode ?? 0, text: Buffer.concat(parts).toString('utf8') }),
        );
        incoming.on('error', rejectResponse);
      },
    );
    request.on('error', rejectResponse);
    request.write(body.slice(0, 10));
    await new Promise((resolve) => setTimeout(resolve, 500));

    const signalledAt = Date.now();
    process.kill(running.child.pid ?? 0, 'SIGTERM');
    await waitForOutput(running, /shutting down/, 5_000);
    // No new connections once shutting down.
    await expect(fetch(`${running.baseUrl}/healthz`)).rejects.toThrow();

    request.end(body.slice(10));
    const answered = await response;
    expect(answered.status).toBe(201);
    expect((JSON.parse(answered.text) as PersonCheckin).person.firstName).toBe('Late');
    const answeredAt = Date.now();

    expect(await exitWithin(running, 15_000)).toBe(0);
    expect(Date.now() - signalledAt).toBeLessThan(15_000);
    // Once nothing is in flight it stops at once: an idle keep-alive connection does not hold it to the drain timeout.
    expect(Date.now() - answeredAt).toBeLessThan(5_000);
    expect(running.stderr()).toBe('');
    expect(await countAccounts(databaseUrl)).toBe(1);
  });
});

describe('without DATABASE_URL (embedded PostgreSQL)', () => {
  it(
    'starts its own PostgreSQL in DATA_DIR, is ready, and Ctrl-C stops both with exit 0',
    { timeout: 150_000 },
    async () => {
      const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'gatehouse-process-'));
      await fs.chmod(dataDir, 0o755);
      dataDirs.push(dataDir);
      const running = await startServer({ DATA_DIR: dataDir }, 60_000);
      expect(running.stdout()).toMatch(/\(embedded PostgreSQL\)/);
      expect(running.stdout()).toMatch(INTEGRATOR);
      expect(running.stdout()).toMatch(KIOSK);

      const pidFile = path.join(dataDir, 'pg', 'postmaster.pid');
      const postgresPid = Number((await fs.readFile(pidFile, 'utf8')).split('\n')[0]);
      expect(postgresPid).toBeGreaterThan(0);
      expect(alive(postgresPid)).toBe(true);

      const anonymous = apiClient(running.baseUrl);
      expect((await anonymous.get('/readyz')).status).toBe(200);
      const integrator = INTEGRATOR.exec(running.stdout())?.[1];
      expect((await apiClient(running.baseUrl, integrator).get<{ data: Site[] }>('/v1/sites')).body.data).toHaveLength(
        2,
      );

      // Ctrl-C in a terminal signals the whole foreground process group.
      process.kill(-(running.child.pid ?? 0), 'SIGINT');
      expect(await exitWithin(running, 30_000)).toBe(0);
      await expect(fs.access(pidFile)).rejects.toThrow();
      expect(alive(postgresPid)).toBe(false);

      // Started again on the same folder: the same data, nothing seeded twice; SIGTERM stops both again.
      const again = await startServer({ DATA_DIR: dataDir }, 60_000);
      expect(again.stdout()).not.toMatch(TOKEN);
      expect((await apiClient(again.baseUrl, integrator).get<{ data: Site[] }>('/v1/sites')).body.data).toHaveLength(2);
      const secondPid = Number((await fs.readFile(pidFile, 'utf8')).split('\n')[0]);
      expect(await stop(again, 'SIGTERM')).toBe(0);
      await expect(fs.access(pidFile)).rejects.toThrow();
      expect(alive(secondPid)).toBe(false);
    },
  );

  it(
    'a port already in use: exits 1 with one plain line, and stops the PostgreSQL it started',
    { timeout: 150_000 },
    async () => {
      const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'gatehouse-process-'));
      await fs.chmod(dataDir, 0o755);
      dataDirs.push(dataDir);
      const taken = http.createServer();
      const port = await freePort();
      await new Promise<void>((resolve) => taken.listen(port, '127.0.0.1', resolve));
      try {
        const running = spawnServer({ DATA_DIR: dataDir }, port);
        expect(await exitWithin(running, 90_000)).toBe(1);
        expect(running.stderr().trim()).toBe(
          `Gatehouse failed to start: port ${port} on 127.0.0.1 is already in use: stop what uses it, or set PORT to a free port.`,
        );
        expect(running.stdout()).not.toMatch(BANNER);
        // Its PostgreSQL was started (the migrations ran) and is stopped again.
        await expect(fs.access(path.join(dataDir, 'pg', 'PG_VERSION'))).resolves.toBeUndefined();
        await expect(fs.access(path.join(dataDir, 'pg', 'postmaster.pid'))).rejects.toThrow();
      } finally {
        await new Promise((resolve) => taken.close(resolve));
      }
    },
  );

  it(
    'Ctrl-C while it is still starting (initdb, migrations) stops the start and its PostgreSQL, exit 0',
    { timeout: 150_000 },
    async () => {
      const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'gatehouse-process-'));
      await fs.chmod(dataDir, 0o755);
      dataDirs.push(dataDir);
      const running = spawnServer({ DATA_DIR: dataDir }, await freePort());
      await waitForOutput(running, /starting embedded PostgreSQL/, 30_000);
      // The terminal signals the foreground group: the server, not its PostgreSQL (a group of its own).
      process.kill(-(running.child.pid ?? 0), 'SIGINT');
      expect(await exitWithin(running, 90_000)).toBe(0);
      expect(running.stdout()).not.toMatch(BANNER);
      expect(running.stderr()).toMatch(/Stopped during start-up \(SIGINT\)/);
      const pidFile = path.join(dataDir, 'pg', 'postmaster.pid');
      await expect(fs.access(pidFile)).rejects.toThrow();
      // Whatever step it stopped in (initdb removes what it wrote when interrupted), the folder starts again.
      const again = await startServer({ DATA_DIR: dataDir }, 60_000);
      expect(again.stdout()).toMatch(INTEGRATOR);
      expect(await stop(again, 'SIGTERM')).toBe(0);
    },
  );
});
