import fs from 'node:fs';

const TICK_MS = 1000 / 100; // USER_HZ: Linux reports CPU time in hundredths of a second

/** CPU time a process has used (its own, and that of children it has reaped), in milliseconds. */
function cpuOf(pid: number, withReaped: boolean): number {
  let stat: string;
  try {
    stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch {
    return 0; // Gone meanwhile.
  }
  // Fields after the command name, which is in parentheses and may hold spaces.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const at = (index: number) => Number(fields[index - 3] ?? 0);
  const own = at(14) + at(15);
  return (withReaped ? own + at(16) + at(17) : own) * TICK_MS;
}

function parentOf(pid: number): number | undefined {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
  } catch {
    return undefined;
  }
}

/**
 * PostgreSQL's CPU time: the postmaster's, with its reaped children (backends that have ended), plus every
 * live child's own (the server's pooled connections, the checkpointer, the WAL writer…).
 */
export function postgresCpuMs(postmasterPid: number): number {
  let total = cpuOf(postmasterPid, true);
  for (const entry of fs.readdirSync('/proc')) {
    const pid = Number(entry);
    if (!Number.isInteger(pid) || pid === postmasterPid) continue;
    if (parentOf(pid) === postmasterPid) total += cpuOf(pid, false);
  }
  return total;
}

/** The server process's own CPU time (its threads: the webhook dispatcher's too). */
export const processCpuMs = (pid: number): number => cpuOf(pid, false);

/** Resident memory of a process in bytes. */
export function residentBytes(pid: number): number {
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(/^VmRSS:\s+(\d+) kB/m.exec(status)?.[1] ?? Number.NaN) * 1024;
}

/** The machine's 1-minute load average and its cores, to say how busy it was. */
export function machineLoad(): { load1: number; cores: number } {
  const [load1] = fs.readFileSync('/proc/loadavg', 'utf8').split(' ');
  const cores = fs.readFileSync('/proc/cpuinfo', 'utf8').match(/^processor\s*:/gm)?.length ?? 0;
  return { load1: Number(load1), cores };
}

/** The CPU of the server and of PostgreSQL, read together. */
export interface CpuReading {
  at: number;
  serverMs: number;
  postgresMs: number;
}

export const readCpu = (serverPid: number, postmasterPid: number): CpuReading => ({
  at: performance.now(),
  serverMs: processCpuMs(serverPid),
  postgresMs: postgresCpuMs(postmasterPid),
});

/** Percentiles of a list of milliseconds (nearest rank). */
export function percentile(sorted: number[], q: number): number {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)] ?? Number.NaN;
}
