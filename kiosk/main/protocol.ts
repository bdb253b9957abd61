import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { net, protocol } from 'electron';

/** The renderer is served as app://kiosk/…: a real origin, so IndexedDB, Web Locks and crypto work as on the web. */
export const APP_SCHEME = 'app';
export const APP_ORIGIN = `${APP_SCHEME}://kiosk`;

/** Must run before the app is ready (Electron's rule for privileged schemes). */
export function registerAppScheme(): void {
  protocol.registerSchemesAsPrivileged([
    { scheme: APP_SCHEME, privileges: { standard: true, secure: true, supportFetchAPI: true, corsEnabled: true } },
  ]);
}

/** The file under `rendererDir` that an app:// URL names, or undefined if it would escape that folder. */
export function rendererFile(rendererDir: string, url: string): string | undefined {
  const pathname = decodeURIComponent(new URL(url).pathname);
  const relative = pathname === '/' || pathname === '' ? 'index.html' : pathname.replace(/^\/+/, '');
  const file = path.resolve(rendererDir, relative);
  const root = path.resolve(rendererDir);
  return file === root || file.startsWith(root + path.sep) ? file : undefined;
}

/** Serves the built renderer from disk; nothing outside its folder can be read through the scheme. */
export function serveRenderer(rendererDir: string): void {
  protocol.handle(APP_SCHEME, (request) => {
    const file = rendererFile(rendererDir, request.url);
    if (!file) return new Response('Not found', { status: 404 });
    return net.fetch(pathToFileURL(file).toString());
  });
}
