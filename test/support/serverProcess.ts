import { type ChildProcess, spawn } from 'node:child_process';
import { freePort } from '../../server/src/db/embeddedPostgres';

export interface ServerProcess {
  baseUrl: string;
  child: ChildProcess;
  /** Everything written to stdout and stderr so far. */
  output: () => string;
  /** Resolves with the exit code (or signal name) when the process ends. */
  exited: Promise<number | string>;
}

/** A TypeScript entry point of this repository run as its own process, resolved once `readyText` is printed. */
export async function spawnEntryPoint(
  entry: string,
  env: Record<string, string>,
  readyText: string,
  readyTimeoutMs: number,
  /** Options for node itself, before the entry point (`--cpu-prof`, which NODE_OPTIONS does not take). */
  nodeArgs: string[] = [],
): Promise<Omit<ServerProcess, 'baseUrl'>> {
  const child = spawn(process.execPath, [...nodeArgs, '--import', 'tsx', entry], {
    cwd: new URL('../..', import.meta.url).pathname,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<number | string>((resolve) =>
    child.once('exit', (code, signal) => resolve(code ?? signal ?? 'unknown')),
  );
  const deadline = Date.now() + readyTimeoutMs;
  while (!output.includes(readyText)) {
    if (child.exitCode !== null || child.signalCode !== null)
      throw new Error(`${entry} exited while starting:\n${output}`);
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`${entry} did not start in ${readyTimeoutMs} ms:\n${output}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  return { child, output: () => output, exited };
}

/** Runs the real server (`server/src/main.ts`) as its own process on a free loopback port. */
export async function spawnServer(
  env: Record<string, string>,
  readyTimeoutMs = 60_000,
  nodeArgs: string[] = [],
): Promise<ServerProcess> {
  const port = env.PORT ?? String(await freePort());
  const started = await spawnEntryPoint(
    'server/src/main.ts',
    { HOST: '127.0.0.1', LOG_LEVEL: 'warn', ...env, PORT: port },
    'Gatehouse API listening',
    readyTimeoutMs,
    nodeArgs,
  );
  return { baseUrl: `http://127.0.0.1:${port}`, ...started };
}
