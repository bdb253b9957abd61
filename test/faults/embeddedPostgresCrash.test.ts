/**
 * The embedded PostgreSQL killed (kill -9 of its postmaster) under a running server. The server restarts
 * it and serves again, saying so in its log at error level; when it cannot, it exits non-zero, so a
 * supervisor restarts it (its /healthz must not say 200 for a process that can never recover).
 */
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { isAlive } from '../../server/src/postgres/embeddedPostgres';
import { type ServerProcess, spawnServer } from '../support/serverProcess';

const INTEGRATOR = /Integrator token[^\n]*?(ck_[0-9A-Za-z]{36})/;
const running: ServerProcess[] = [];
const dataDirs: string[] = [];

afterEach(async () => {
  for (const server of running.splice(0)) {
    if (server.child.exitCode === null && server.child.signalCode === null) {
      server.child.kill('SIGTERM');
      await Promise.race([server.exited, new Promise((resolve) => setTimeout(resolve, 20_000))]);
    }
  }
  for (const dataDir of dataDirs.splice(0)) {
    // Whatever PostgreSQL is still running on the folder (the one moved aside included) is stopped.
    for (const folder of ['pg', 'pg-moved']) {
      const pid = Number(
        (await fs.readFile(path.join(dataDir, folder, 'postmaster.pid'), 'utf8').catch(() => '')).split('\n')[0],
      );
      if (Number.isInteger(pid) && pid > 0 && isAlive(pid)) process.kill(pid, 'SIGKILL');
    }
    await fs.rm(dataDir, { recursive: true, force: true });
  }
});

async function startEmbedded(): Promise<{ server: ServerProcess; dataDir: string; token: string }> {
  const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'gatehouse-pg-crash-'));
  await fs.chmod(dataDir, 0o755);
  dataDirs.push(dataDir);
  const server = await spawnServer(
    { DATA_DIR: dataDir, NODE_ENV: 'development', RATE_LIMIT_PER_MINUTE: '100000' },
    90_000,
  );
  running.push(server);
  const token = INTEGRATOR.exec(server.output())?.[1];
  if (!token) throw new Error(`no demo token printed:\n${server.output()}`);
  return { server, dataDir, token };
}

const postmasterPid = async (dataDir: string) =>
  Number((await fs.readFile(path.join(dataDir, 'pg', 'postmaster.pid'), 'utf8')).split('\n')[0]);

async function killPostmaster(dataDir: string): Promise<number> {
  const pid = await postmasterPid(dataDir);
  process.kill(pid, 'SIGKILL');
  while (isAlive(pid)) await new Promise((resolve) => setTimeout(resolve, 20));
  return pid;
}

const status = async (url: string, token?: string) => {
  try {
    const response = await fetch(url, {
      headers: token ? { Authorization: `Bearer ${token}` } : {},
      signal: AbortSignal.timeout(5_000),
    });
    await response.arrayBuffer();
    return response.status;
  } catch {
    return 0;
  }
};

/** Error-level lines of the server's JSON log (pino level 50) whose message matches. */
const errorLines = (server: ServerProcess, pattern: RegExp) =>
  server
    .output()
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as { level: number; msg: string })
    .filter((line) => line.level >= 50 && pattern.test(line.msg));

describe('the embedded PostgreSQL killed under a running server', () => {
  it(
    'is restarted: the same server process serves again within seconds, and the log says so at error level',
    { timeout: 150_000 },
    async () => {
      const { server, dataDir, token } = await startEmbedded();
      const sites = `${server.baseUrl}/v1/sites`;
      expect(await status(sites, token)).toBe(200);
      const killed = await killPostmaster(dataDir);

      const deadline = Date.now() + 45_000;
      let answer = 0;
      while (answer !== 200 && Date.now() < deadline) {
        answer = await status(sites, token);
        if (answer !== 200) await new Promise((resolve) => setTimeout(resolve, 200));
      }
      expect(answer, server.output()).toBe(200);
      expect(await postmasterPid(dataDir)).not.toBe(killed);
      expect(await status(`${server.baseUrl}/readyz`)).toBe(200);
      expect(await status(`${server.baseUrl}/healthz`)).toBe(200);
      expect(server.child.exitCode).toBeNull();
      expect(errorLines(server, /embedded PostgreSQL/).length, server.output()).toBeGreaterThan(0);
    },
  );

  it(
    'exits non-zero when it cannot restart it (its data folder is gone), so a supervisor restarts the server',
    { timeout: 150_000 },
    async () => {
      const { server, dataDir, token } = await startEmbedded();
      expect(await status(`${server.baseUrl}/v1/sites`, token)).toBe(200);
      // Moved aside under the running cluster (PostgreSQL works on in its folder), then the cluster dies.
      await fs.rename(path.join(dataDir, 'pg'), path.join(dataDir, 'pg-moved'));
      const pid = Number((await fs.readFile(path.join(dataDir, 'pg-moved', 'postmaster.pid'), 'utf8')).split('\n')[0]);
      process.kill(pid, 'SIGKILL');

      const code = await Promise.race([
        server.exited,
        new Promise((resolve) => setTimeout(() => resolve('still running'), 90_000)),
      ]);
      expect(code, server.output()).toBe(1);
      expect(errorLines(server, /embedded PostgreSQL/).length, server.output()).toBeGreaterThan(0);
      // No new cluster was made in its place (that would serve an empty database).
      await expect(fs.access(path.join(dataDir, 'pg', 'PG_VERSION'))).rejects.toThrow();
    },
  );
});
