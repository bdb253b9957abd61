import dns from 'node:dns';
import net from 'node:net';
import { ipv6Groups } from '../net/ipv6Groups';

/**
 * IPv4 ranges that are not global unicast (IANA's IPv4 special-purpose registry, "globally reachable:
 * false", plus multicast and the reserved 240/4): a webhook never goes there unless
 * WEBHOOK_ALLOW_PRIVATE_URLS=true. Checked when a subscription is saved and on every connection (DNS rebinding).
 */
const nonGlobalIpv4 = new net.BlockList();
for (const [prefix, bits] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['192.88.99.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const) {
  nonGlobalIpv4.addSubnet(prefix, bits, 'ipv4');
}

/**
 * Inside 2000::/3 (the only IPv6 global unicast space), what IANA's IPv6 special-purpose registry says is
 * not: the IETF protocol assignments (Teredo 2001::/32, which embeds IPv4 addresses, among them) and the
 * documentation ranges. 6to4 (2002::/16) is unwrapped instead.
 */
const nonGlobalIpv6 = new net.BlockList();
for (const [prefix, bits] of [
  ['2001::', 23],
  ['2001:db8::', 32],
  ['3fff::', 20],
] as const) {
  nonGlobalIpv6.addSubnet(prefix, bits, 'ipv6');
}

const ipv4Of = (high: number, low: number) => [high >> 8, high & 255, low >> 8, low & 255].join('.');

/**
 * The IPv4 address an IPv6 address carries, for the forms that reach it: IPv4-mapped `::ffff:a.b.c.d`,
 * IPv4-translated `::ffff:0:a.b.c.d`, IPv4-compatible `::a.b.c.d`, NAT64 `64:ff9b::a.b.c.d` and 6to4
 * `2002:aabb:ccdd::`. Undefined for any other address.
 */
function embeddedIpv4(groups: number[]): string | undefined {
  const [g0, g1, g2, g3, g4, g5, g6, g7] = groups as [number, number, number, number, number, number, number, number];
  const zeroTo = (end: number) => groups.slice(0, end).every((group) => group === 0);
  if (zeroTo(5) && g5 === 0xffff) return ipv4Of(g6, g7);
  if (zeroTo(4) && g4 === 0xffff && g5 === 0) return ipv4Of(g6, g7);
  if (zeroTo(6)) return ipv4Of(g6, g7);
  if (g0 === 0x64 && g1 === 0xff9b && g2 === 0 && g3 === 0 && g4 === 0 && g5 === 0) return ipv4Of(g6, g7);
  if (g0 === 0x2002) return ipv4Of(g1, g2);
  return undefined;
}

/**
 * True for a global unicast address, the only kind a webhook may reach by default: every IPv4 form inside an
 * IPv6 address is unwrapped and judged as IPv4, and any other IPv6 address must lie in 2000::/3 outside the
 * special-purpose ranges (so loopback, unique-local, link-local, multicast, 100::/64 discard and the local
 * NAT64 64:ff9b:1::/48 are all refused). Anything that is not an IP address is false.
 */
export function isGlobalUnicast(address: string): boolean {
  const family = net.isIP(address);
  if (family === 4) return !nonGlobalIpv4.check(address, 'ipv4');
  // A zone (`fe80::1%eth0`) only ever names a link-local address.
  if (family !== 6 || address.includes('%')) return false;
  const groups = ipv6Groups(address);
  const inner = embeddedIpv4(groups);
  if (inner !== undefined) return !nonGlobalIpv4.check(inner, 'ipv4');
  const first = groups[0] ?? 0;
  return (first & 0xe000) === 0x2000 && !nonGlobalIpv6.check(address, 'ipv6');
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
    setTimeout(
      () => reject(new Error(`looking up ${host} took over ${LOOKUP_TIMEOUT_MS} ms`)),
      LOOKUP_TIMEOUT_MS,
    ).unref();
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
export async function urlRefusal(
  raw: string,
  allowPrivate: boolean,
): Promise<{ kind: 'refused' | 'unchecked'; message: string } | undefined> {
  const host = hostOf(new URL(raw));
  let addresses: string[];
  try {
    addresses = await resolveHost(host);
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    if (typeof code === 'string' && NO_SUCH_NAME.has(code))
      return { kind: 'refused', message: `The host ${host} does not resolve.` };
    return { kind: 'unchecked', message: `The host ${host} could not be looked up just now (DNS); retry shortly.` };
  }
  if (addresses.length === 0) return { kind: 'refused', message: `The host ${host} does not resolve.` };
  if (allowPrivate) return undefined;
  // Which address, is not said: the answer would map a private network to whoever may save a URL.
  return addresses.every(isGlobalUnicast)
    ? undefined
    : {
        kind: 'refused',
        message: `The host ${host} resolves to an address that is not public (private, loopback, link-local, documentation or another special-purpose range; allowed only when the server runs with WEBHOOK_ALLOW_PRIVATE_URLS=true).`,
      };
}

type LookupCallback = (
  error: NodeJS.ErrnoException | null,
  address: string | dns.LookupAddress[],
  family?: number,
) => void;

/**
 * A `lookup` for outgoing webhook connections: resolves as usual, then refuses the connection when any
 * address is not global unicast. The socket connects to exactly the addresses checked here, so a name cannot pass
 * the check and then resolve elsewhere.
 */
export function guardedLookup(allowPrivate: boolean) {
  return (hostname: string, options: dns.LookupOptions, callback: LookupCallback): void => {
    dns.lookup(hostname, { ...options, all: true }, (error, addresses) => {
      if (error) return callback(error, []);
      const inside = allowPrivate ? undefined : addresses.find((entry) => !isGlobalUnicast(entry.address));
      if (inside) {
        const refusal: NodeJS.ErrnoException = new Error(`${hostname} resolves to an address that is not public`);
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
