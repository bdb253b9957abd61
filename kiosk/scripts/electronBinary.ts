import fs from 'node:fs';
import { createRequire } from 'node:module';

/**
 * The Electron executable, or undefined when it is not installed. The `electron` package is an optional
 * dependency whose download step npm does not run here (allowScripts), so the package may be present with
 * no binary: its `require()` then throws, or names a file that does not exist.
 */
export function electronBinary(
  load: () => unknown = () => createRequire(import.meta.url)('electron'),
): string | undefined {
  let binary: unknown;
  try {
    binary = load();
  } catch {
    return undefined;
  }
  return typeof binary === 'string' && fs.existsSync(binary) ? binary : undefined;
}

export const missingElectronHelp = `Gatehouse kiosk: Electron's binary is not installed, so the desktop app cannot start here.

npm installs the optional "electron" package without running its download step (see allowScripts in
package.json). To get the binary, on a machine that can reach Electron's downloads, run:

    node node_modules/electron/install.js

or set ELECTRON_OVERRIDE_DIST_PATH to a folder holding an unpacked Electron release of the same version.
Meanwhile the same screens run in a browser:

    npm run kiosk:web
`;
