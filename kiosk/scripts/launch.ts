import { spawn } from 'node:child_process';
import { buildKioskApp, mainBundle } from './buildApp';
import { electronBinary, missingElectronHelp } from './electronBinary';

// `npm run kiosk`: build the app, then run it in Electron, passing KIOSK_* variables and the arguments
// after `--` through (`npm run kiosk -- --quit` stops a running kiosk).
const binary = electronBinary();
if (!binary) {
  process.stderr.write(missingElectronHelp);
  process.exit(1);
}
await buildKioskApp();
const child = spawn(binary, [mainBundle, ...process.argv.slice(2)], { stdio: 'inherit', env: process.env });
// Ctrl-C and a service manager's SIGTERM go to the app, which then exits with its own code.
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => child.kill(signal));
child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
