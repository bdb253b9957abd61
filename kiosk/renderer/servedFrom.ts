/**
 * The origin of the server this production build was loaded from (the Gatehouse server's /kiosk), the
 * address the setup screen starts with. Undefined in Electron (app://) and under the Vite dev server
 * (`npm run kiosk:web`), whose origin is not the API's.
 */
export function servedFrom(win: Window): string | undefined {
  const { protocol, origin } = win.location;
  return import.meta.env.PROD && (protocol === 'https:' || protocol === 'http:') ? origin : undefined;
}
