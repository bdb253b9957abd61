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

/**
 * The file under `rendererDir` that an app:// URL names, or undefined if it names none: another host than
 * the app's, a path that would escape that folder, or one that is not valid percent-encoding.
 */
export function rendererFile(rendererDir: string, url: string): string | undefined {
  const parsed = new URL(url);
  if (`${parsed.protocol}//${parsed.host}` !== APP_ORIGIN) return undefined;
  let pathname: string;
  try {
    pathname = decodeURIComponent(parsed.pathname);
  } catch {
    return undefined; // A stray "%" (URIError): a request that fails, not a handler that throws.
  }
  const relative = pathname === '/' || pathname === '' ? 'index.html' : pathname.replace(/^\/+/, '');
  const file = path.resolve(rendererDir, relative);
  const root = path.resolve(rendererDir);
  return file === root || file.startsWith(root + path.sep) ? file : undefined;
}

/** Serves the built renderer from disk; nothing outside its folder can be read through the scheme. */
export function serveRenderer(rendererDir: string): void {
  protocol.handle(APP_SCHEME, (request) => {
    if (request.method !== 'GET' && request.method !== 'HEAD')
      return new Response('Method not allowed', { status: 405 });
    const file = rendererFile(rendererDir, request.url);
    if (!file) return new Response('Not found', { status: 404 });
    return net.fetch(pathToFileURL(file).toString());
  });
}
