import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';

// `npm run kiosk:web` must `exec` its server: npm passes a SIGTERM or SIGINT on to the one process it
// started, and without `exec` that is a shell, which dies and leaves Vite running, orphaned, on its port.
// Linux only: the process tree is read from /proc.

const hasProc = fs.existsSync('/proc/self/stat');

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

/** A process's parent and state from /proc, or undefined once it is gone. */
function readStat(pid: number): { ppid: number; state: string } | undefined {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The command name (in parentheses) may hold spaces: the fields after its closing parenthesis are fixed.
    const [state, ppid] = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return { ppid: Number(ppid), state: state ?? '' };
  } catch {
    return undefined;
  }
}

/** Whether the process still runs (a zombie has ended: only its exit status is left to collect). */
const running = (pid: number) => {
  const stat = readStat(pid);
  return stat !== undefined && stat.state !== 'Z' && stat.state !== 'X';
};

/** Every process below `root`, at this moment. */
function descendants(root: number): number[] {
  const parents = new Map<number, number>();
  for (const entry of fs.readdirSync('/proc')) {
    const pid = Number(entry);
    if (!Number.isInteger(pid)) continue;
    const stat = readStat(pid);
    if (stat) parents.set(pid, stat.ppid);
  }
  const found: number[] = [];
  const below = (parent: number) => {
    for (const [pid, ppid] of parents) {
      if (ppid === parent && !found.includes(pid)) {
        found.push(pid);
        below(pid);
      }
    }
  };
  below(root);
  return found;
}

async function until(check: () => boolean | Promise<boolean>, timeoutMs: number, what: string): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

const answers = async (url: string) => {
  try {
    return (await fetch(url, { signal: AbortSignal.timeout(2_000) })).ok;
  } catch {
    return false;
  }
};

describe.skipIf(!hasProc)('npm run kiosk:web', () => {
  // Whatever a failed run left behind is ended by its id (only processes this test started).
  const started: number[] = [];
  afterEach(() => {
    for (const pid of started.splice(0)) {
      if (running(pid)) process.kill(pid, 'SIGKILL');
    }
  });

  for (const signal of ['SIGTERM', 'SIGINT'] as const) {
    it(`stops everything it started on ${signal} to the npm process: no Vite left on its port`, async () => {
      const port = await freePort();
      const url = `http://127.0.0.1:${port}/`;
      const npm: ChildProcess = spawn('npm', ['run', 'kiosk:web'], {
        env: { ...process.env, KIOSK_WEB_PORT: String(port) },
        stdio: 'ignore',
      });
      const npmPid = npm.pid ?? 0;
      started.push(npmPid);
      let exited = false;
      npm.once('exit', () => {
        exited = true;
      });
      await until(() => answers(url), 60_000, 'the kiosk page');
      const tree = descendants(npmPid);
      started.push(...tree);
      expect(tree.length).toBeGreaterThan(0);

      npm.kill(signal);
      await until(() => exited, 20_000, 'npm to exit');
      await until(() => tree.every((pid) => !running(pid)), 15_000, `${tree.join(', ')} to end`);
      expect(await answers(url)).toBe(false);
    }, 90_000);
  }
});
