import fs from 'node:fs';
import path from 'node:path';

/** Past this size the log moves to `<file>.1` (replacing the one before) and starts again: two files at most. */
export const LOG_FILE_LIMIT_BYTES = 1_000_000;

/**
 * The main process's log: each line to the console (a terminal, a service manager's journal) and, with its
 * time, to `file` in the user-data folder, since an installed kiosk has no console to read. Writing the file
 * must never stop the kiosk: a line that cannot be written there is on the console only.
 */
export function consoleAndFileLog(file: string, limitBytes = LOG_FILE_LIMIT_BYTES): (line: string) => void {
  return (line) => {
    console.log(`[kiosk] ${line}`);
    try {
      fs.mkdirSync(path.dirname(file), { recursive: true }); // The user-data folder, on the very first start.
      if ((fs.statSync(file, { throwIfNoEntry: false })?.size ?? 0) >= limitBytes) fs.renameSync(file, `${file}.1`);
      fs.appendFileSync(file, `${new Date().toISOString()} ${line}\n`);
    } catch {
      // A full or read-only disk: the console still has it.
    }
  };
}
