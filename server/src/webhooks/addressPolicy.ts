import dns from 'node:dns';
import net from 'node:net';

/**
 * Addresses a webhook must not reach unless WEBHOOK_ALLOW_PRIVATE_URLS=true (docs/webhooks.md): private,
 * loopback, link-local, and the other ranges that are never a public receiver (unspecified, CGNAT,
 * multicast, reserved). Checked when a subscription is saved and again on every connection, since a
 * name can resolve elsewhere later (DNS rebinding).
 */
const blocked = new net.BlockList();
for (const [prefix, bits] of [
  ['0.0.0.0', 8], ['10.0.0.0', 8], ['100.64.0.0', 10], ['127.0.0.0', 8], ['169.254.0.0', 16], ['172.16.0.0', 12],
  ['192.0.0.0', 24], ['192.168.0.0', 16], ['198.18.0.0', 15], ['224.0.0.0', 4], ['240.0.0.0', 4],
] as const) {
  blocked.addSubnet(prefix, bits, 'ipv4');
}
for (const [prefix, bits] of [
  ['::', 128], ['::1', 128], ['fc00::', 7], ['fe80::', 10], ['fec0::', 10], ['ff00::', 8],
] as const) {
  blocked.addSubnet(prefix, bits, 'ipv6');
}

/** The IPv4 address inside an IPv4-mapped or NAT64 IPv6 address (`::ffff:10.0.0.1`), if there is one. */
function embeddedIpv4(address: string): string | undefined {
  const dotted = /^(?:::ffff:|64:ff9b::)(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (dotted) return dotted[1];
  const hex = /^(?:::ffff:|64:ff9b::)([0-9a-f]{1,4}):([0-9a-f]{1,4})$/i.exec(address);
  if (!hex?.[1] || !hex[2]) return undefined;
  const high = parseInt(hex[1], 16);
  const low = parseInt(hex[2], 16);
  return [high >> 8, high & 255, low >> 8, low & 255].join('.');
}

/** True for an IP address no webhook may be sent to by default. */
export function isPrivateAddress(address: string): boolean {
  const family = net.isIP(address);
  if (family === 4) return blocked.check(address, 'ipv4');
  if (family !== 6) return true;
  const inner = embeddedIpv4(address);
  if (inner) return blocked.check(inner, 'ipv4');
  return blocked.check(address, 'ipv6');
}

/** The host of a URL as the resolver wants it (IPv6 literals lose their brackets). */
export function hostOf(url: URL): string {
  return url.hostname.replace(/^\[(.*)\]$/, '$1');
}

const LOOKUP_TIMEOUT_MS = 5_000;

/** Every address a host name resolves to (or the literal itself). Rejects when it does not resolve. */
export async function resolveHost(host: string): Promise<string[]> {
  if (net.isIP(host)) return [host];
  const lookup = dns.promises.lookup(host, { all: true, verbatim: true });
  const timeout = new Promise<never>((_, reject) => {
    setTimeout(() => reject(new Error(`looking up ${host} took over ${LOOKUP_TIMEOUT_MS} ms`)), LOOKUP_TIMEOUT_MS).unref();
  });
  const addresses = await Promise.race([lookup, timeout]);
  return addresses.map((entry) => entry.address);
}

/** Lookup errors that say the name has no address, as opposed to DNS that could not answer just now. */
const NO_SUCH_NAME = new Set(['ENOTFOUND', 'ENODATA']);

/**
 * Why a subscription URL is refused (`refused`: the URL cannot be used), or that its host could not be
 * looked up just now (`unchecked`: DNS failed or timed out; the same URL may pass in a moment), or
 * undefined when it may be saved.
 */
export async function urlRefusal(raw: string, allowPrivate: boolean): Promise<{ kind: 'refused' | 'unchecked'; message: string } | undefined> {
  const host = hostOf(new URL(raw));
  let addresses: string[];
  try {
    addresses = await resolveHost(host);
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    if (typeof code === 'string' && NO_SUCH_NAME.has(code)) return { kind: 'refused', message: `The host ${host} does not resolve.` };
    return { kind: 'unchecked', message: `The host ${host} could not be looked up just now (DNS); retry shortly.` };
  }
  if (addresses.length === 0) return { kind: 'refused', message: `The host ${host} does not resolve.` };
  if (allowPrivate) return undefined;
  // Which address, is not said: the answer would map a private network to whoever may save a URL.
  return addresses.some(isPrivateAddress)
    ? {
        kind: 'refused',
        message: `The host ${host} resolves to a private, loopback or link-local address (allowed only when the server runs with WEBHOOK_ALLOW_PRIVATE_URLS=true).`,
      }
    : undefined;
}

type LookupCallback = (error: NodeJS.ErrnoException | null, address: string | dns.LookupAddress[], family?: number) => void;

/**
 * A `lookup` for outgoing webhook connections: resolves as usual, then refuses the connection when any
 * address is private. The socket connects to exactly the addresses checked here, so a name cannot pass
 * the check and then resolve elsewhere.
 */
export function guardedLookup(allowPrivate: boolean) {
  return (hostname: string, options: dns.LookupOptions, callback: LookupCallback): void => {
    dns.lookup(hostname, { ...options, all: true }, (error, addresses) => {
      if (error) return callback(error, []);
      const inside = allowPrivate ? undefined : addresses.find((entry) => isPrivateAddress(entry.address));
      if (inside) {
        const refusal: NodeJS.ErrnoException = new Error(`${hostname} resolves to a private address`);
        refusal.code = 'EPRIVATEADDRESS';
        return callback(refusal, []);
      }
      if (options.all) return callback(null, addresses);
      const first = addresses[0];
      if (!first) return callback(Object.assign(new Error(`${hostname} does not resolve`), { code: 'ENOTFOUND' }), []);
      callback(null, first.address, first.family);
    });
  };
}
