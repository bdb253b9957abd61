import { spawn } from 'node:child_process';
import { once } from 'node:events';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { isAlive as alive, startEmbeddedPostgres } from '../../server/src/postgres/embeddedPostgres';

/** Starts the embedded PostgreSQL on `root` in a process of its own, then kills that process with SIGKILL. */
async function crashAfterStarting(root: string): Promise<void> {
  const entry = path.resolve('server/src/postgres/embeddedPostgres.ts');
  const code = `const { startEmbeddedPostgres } = await import(${JSON.stringify(entry)});
    await startEmbeddedPostgres({ dataDir: ${JSON.stringify(root)} });
    process.stdout.write('ready\\n');
    setInterval(() => undefined, 1000);`;
  const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', code], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  await new Promise<void>((resolve, reject) => {
    child.stdout.on('data', (chunk: Buffer) => chunk.toString().includes('ready') && resolve());
    child.once('exit', (code) =>
      reject(new Error(`the server stand-in exited (${code}) before its PostgreSQL was ready`)),
    );
  });
  child.kill('SIGKILL');
  await once(child, 'exit');
}

/** A fresh data folder the postgres user can reach (0755), removed after `run`. */
async function inDataDir(name: string, run: (root: string) => Promise<void>): Promise<void> {
  const root = await fs.mkdtemp(path.join(os.tmpdir(), `gatehouse-${name}-`));
  await fs.chmod(root, 0o755);
  try {
    await run(root);
  } finally {
    await fs.rm(root, { recursive: true, force: true });
  }
}

describe.skipIf(process.getuid?.() !== 0)('the embedded PostgreSQL as root', () => {
  it('refuses, in plain words naming DATA_DIR, a data folder the postgres user cannot reach', async () => {
    const locked = await fs.mkdtemp(path.join(os.tmpdir(), 'gatehouse-locked-'));
    try {
      await fs.chmod(locked, 0o700);
      const dataDir = path.join(locked, 'project', '.data');
      await expect(startEmbeddedPostgres({ dataDir })).rejects.toThrow(
        /DATA_DIR .* which the postgres system user cannot enter/,
      );
      await expect(fs.access(dataDir)).rejects.toThrow();
    } finally {
      await fs.rm(locked, { recursive: true, force: true });
    }
  });

  it(
    'stops a cluster a crashed server left running in its folder; a pid file naming another process is stale, and that process is left alone',
    { timeout: 90_000 },
    async () => {
      await inDataDir('orphan', async (root) => {
        const pidFile = path.join(root, 'pg', 'postmaster.pid');
        const pidIn = async () => Number((await fs.readFile(pidFile, 'utf8')).split('\n')[0]);
        const sleeper = spawn('sleep', ['60'], { stdio: 'ignore' });
        try {
          // Left running by a server killed with SIGKILL.
          await crashAfterStarting(root);
          const orphan = await pidIn();
          expect(alive(orphan)).toBe(true);
          const again = await startEmbeddedPostgres({ dataDir: root });
          expect(alive(orphan)).toBe(false);
          const current = await pidIn();
          await again.stop();
          expect(alive(current)).toBe(false);
          // A pid file whose pid now belongs to another process: that process is left alone, and the stale
          // file goes, so the cluster starts.
          await fs.writeFile(pidFile, `${sleeper.pid}\n${path.join(root, 'pg')}\n`);
          const afterReboot = await startEmbeddedPostgres({ dataDir: root });
          await afterReboot.stop();
          expect(alive(sleeper.pid ?? 0)).toBe(true);
        } finally {
          sleeper.kill();
        }
      });
    },
  );

  it(
    'refuses to start on a data folder a running server uses, and leaves its PostgreSQL serving',
    { timeout: 90_000 },
    async () => {
      await inDataDir('in-use', async (root) => {
        const running = await startEmbeddedPostgres({ dataDir: root });
        try {
          await expect(startEmbeddedPostgres({ dataDir: root })).rejects.toThrow(
            new RegExp(
              `another Gatehouse server \\(pid ${process.pid}\\) is running on DATA_DIR ${root}: stop it first`,
            ),
          );
          // A server of the version before kept no server.pid: its PostgreSQL's parent is a live Node.js process.
          await fs.rm(path.join(root, 'server.pid'));
          await expect(startEmbeddedPostgres({ dataDir: root })).rejects.toThrow(
            /another Gatehouse server \(pid \d+\) is running/,
          );
          const client = new pg.Client({ connectionString: running.url });
          await client.connect();
          expect((await client.query('SELECT 1 AS one')).rows).toEqual([{ one: 1 }]);
          await client.end();
        } finally {
          await running.stop();
        }
      });
    },
  );

  it(
    'gives each new cluster a password of its own, readable by its owner only, and keeps it across starts',
    { timeout: 90_000 },
    async () => {
      await inDataDir('password', async (root) => {
        const first = await startEmbeddedPostgres({ dataDir: root });
        const url = new URL(first.url);
        expect(decodeURIComponent(url.password)).not.toBe('gatehouse');
        expect(decodeURIComponent(url.password).length).toBeGreaterThanOrEqual(24);
        expect((await fs.stat(path.join(root, 'password'))).mode & 0o777).toBe(0o600);
        // The fixed password of earlier versions does not open it.
        const guess = new pg.Client({
          host: '127.0.0.1',
          port: Number(url.port),
          user: 'postgres',
          password: 'gatehouse',
          database: 'postgres',
        });
        await expect(guess.connect()).rejects.toThrow(/password authentication failed/);
        await first.stop();
        const second = await startEmbeddedPostgres({ dataDir: root });
        expect(new URL(second.url).password).toBe(url.password);
        const client = new pg.Client({ connectionString: second.url });
        await client.connect();
        await client.end();
        await second.stop();
      });
    },
  );
});
