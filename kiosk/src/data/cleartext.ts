/**
 * Whether a server URL would carry the kiosk token and visitors' names unencrypted beyond this device:
 * `http:` to any host but the device itself. A LAN address counts too: a lobby's Wi-Fi is readable by
 * anyone on it. Not a refusal (a site may run its server on a trusted wired network), a warning.
 */
export function sendsInTheClear(serverUrl: string): boolean {
  let url: URL;
  try {
    url = new URL(serverUrl.trim());
  } catch {
    return false; // Not a URL: the setup screen says so on Save.
  }
  if (url.protocol !== 'http:') return false;
  const host = url.hostname.toLowerCase();
  const loopback =
    host === 'localhost' || host.endsWith('.localhost') || host === '[::1]' || /^127(\.\d{1,3}){3}$/.test(host);
  return !loopback;
}
