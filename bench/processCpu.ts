/**
 * CPU time of processes, read from Linux's /proc (user + system ticks, fields 14 and 15 of `stat`), so a
 * benchmark can say what one request costs each side: the API server, the peer, PostgreSQL (its postmaster,
 * every live child and the children it reaped), and the load generator. Steadier than latency on a shared
 * machine, and it tells whether a change saves work or only moves it.
 */
import fs from 'node:fs/promises';

/** Clock ticks per second of /proc's CPU fields (USER_HZ, 100 on Linux). */
const TICKS_PER_SECOND = 100;

interface ProcStat {
  pid: number;
  ppid: number;
  /** Own user + system ticks. */
  own: number;
  /** User + system ticks of its reaped children. */
  reaped: number;
}

async function statOf(pid: number): Promise<ProcStat | undefined> {
  const text = await fs.readFile(`/proc/${pid}/stat`, 'utf8').catch(() => undefined);
  if (text === undefined) return undefined;
  // The command name (field 2) is in parentheses and may hold spaces: fields are counted after its ')'.
  const fields = text.slice(text.lastIndexOf(')') + 2).split(' ');
  const field = (n: number) => Number(fields[n - 3]);
  return { pid, ppid: field(4), own: field(14) + field(15), reaped: field(16) + field(17) };
}

/** CPU seconds a process has used so far (its reaped children's included when `withChildren`). */
export async function cpuSecondsOf(pid: number, withChildren = false): Promise<number> {
  const stat = await statOf(pid);
  if (!stat) return Number.NaN;
  return (stat.own + (withChildren ? stat.reaped : 0)) / TICKS_PER_SECOND;
}

/** CPU seconds of a process tree one level deep: the parent, its reaped children and every live child. */
export async function treeCpuSecondsOf(parent: number): Promise<number> {
  const entries = await fs.readdir('/proc');
  const stats = await Promise.all(entries.filter((name) => /^\d+$/.test(name)).map((name) => statOf(Number(name))));
  let ticks = 0;
  for (const stat of stats) {
    if (!stat) continue;
    if (stat.pid === parent) ticks += stat.own + stat.reaped;
    else if (stat.ppid === parent) ticks += stat.own;
  }
  return ticks / TICKS_PER_SECOND;
}

/** The PostgreSQL postmaster behind a backend (the parent of `pg_backend_pid()`). */
export async function postmasterOf(backendPid: number): Promise<number> {
  const stat = await statOf(backendPid);
  if (!stat) throw new Error(`no process ${backendPid}: is PostgreSQL on this machine?`);
  return stat.ppid;
}

/** CPU seconds of several named parts, taken together before and after a piece of work. */
export async function cpuSnapshot(parts: Record<string, () => Promise<number>>): Promise<Record<string, number>> {
  const names = Object.keys(parts);
  const values = await Promise.all(names.map((name) => parts[name]?.() ?? Promise.resolve(Number.NaN)));
  return Object.fromEntries(names.map((name, index) => [name, values[index] ?? Number.NaN]));
}
