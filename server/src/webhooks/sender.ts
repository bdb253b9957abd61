import net from 'node:net';
import { Agent } from 'undici';
import { guardedLookup, hostOf, isPrivateAddress } from './addressPolicy';

export interface SendResult {
  /** The receiver's status, or null when no response came. */
  statusCode: number | null;
  /** Why the attempt failed without a usable response (or why a 3xx was not followed); else null. */
  error: string | null;
  durationMs: number;
  /** The raw `Retry-After` header, if any. */
  retryAfter?: string;
}

export interface Sender {
  send(input: { url: string; headers: Record<string, string>; body: string }): Promise<SendResult>;
  /** Closes the kept-alive connections. */
  close(): Promise<void>;
}

const MAX_RESPONSE_BYTES = 64 * 1024;
const MAX_ERROR_LENGTH = 300;

const KNOWN_ERRORS: Record<string, string> = {
  ECONNREFUSED: 'Connection refused',
  ECONNRESET: 'Connection reset by the receiver',
  ENOTFOUND: 'The host does not resolve',
  EAI_AGAIN: 'The host could not be resolved (temporary DNS failure)',
};

/** The codes along an error's `cause` chain (undici wraps socket errors), outermost first. */
function codesOf(error: unknown): Array<{ code: string; message: string }> {
  const found: Array<{ code: string; message: string }> = [];
  for (let current: unknown = error; current instanceof Error; current = current.cause) {
    const code = (current as NodeJS.ErrnoException).code;
    if (code) found.push({ code, message: current.message });
  }
  return found;
}

function describe(error: unknown, timedOut: boolean, timeoutMs: number): string {
  if (timedOut) return `No response within ${timeoutMs} ms`;
  const codes = codesOf(error);
  const refused = codes.find((entry) => entry.code === 'EPRIVATEADDRESS');
  if (refused) return `Refused: ${refused.message}`.slice(0, MAX_ERROR_LENGTH);
  const known = codes.map((entry) => KNOWN_ERRORS[entry.code]).find((text) => text !== undefined);
  return (known ?? (error instanceof Error && error.message ? error.message : 'Request failed')).slice(0, MAX_ERROR_LENGTH);
}

/**
 * POSTs webhook bodies (undici: about half the CPU of node:http per request): one deadline for the whole
 * exchange, redirects never followed (a 3xx is a failed attempt), connections only to addresses the
 * policy allows (checked as the socket connects, so a name cannot pass the check and then resolve
 * elsewhere), and kept-alive connections per receiver.
 */
export function createSender(options: { allowPrivateUrls: boolean; timeoutMs: number; connectionsPerOrigin?: number }): Sender {
  const agent = new Agent({
    connections: options.connectionsPerOrigin ?? 16,
    headersTimeout: options.timeoutMs,
    bodyTimeout: options.timeoutMs,
    connect: { lookup: guardedLookup(options.allowPrivateUrls), timeout: options.timeoutMs },
  });

  const send: Sender['send'] = async (input) => {
    const url = new URL(input.url);
    const host = hostOf(url);
    // A literal IP never goes through `lookup`: check it here.
    if (!options.allowPrivateUrls && net.isIP(host) && isPrivateAddress(host)) {
      return { statusCode: null, error: `Refused: ${host} is a private, loopback or link-local address`, durationMs: 0 };
    }
    const started = performance.now();
    const elapsed = () => Math.max(0, Math.round(performance.now() - started));
    const abort = new AbortController();
    let timedOut = false;
    const deadline = setTimeout(() => {
      timedOut = true;
      abort.abort();
    }, options.timeoutMs);
    let statusCode: number | null = null;
    let retryAfter: string | undefined;
    let note: string | null = null;
    try {
      const response = await agent.request({
        origin: url.origin,
        path: `${url.pathname}${url.search}`,
        method: 'POST',
        // Added to the signed headers, not spread into a new literal (V8 makes that ~30 times slower).
        headers: Object.assign({ 'content-type': 'application/json', 'user-agent': 'Gatehouse-Webhooks/1' }, input.headers),
        body: input.body,
        signal: abort.signal,
      });
      statusCode = response.statusCode;
      const header = response.headers['retry-after'];
      if (typeof header === 'string') retryAfter = header;
      if (statusCode >= 300 && statusCode < 400) {
        const location = response.headers.location;
        note = `Redirect to ${typeof location === 'string' ? location : '(no Location)'} not followed`;
      }
      // The status is what counts; the body is read only so the connection can be reused.
      await response.body.dump({ limit: MAX_RESPONSE_BYTES }).catch(() => undefined);
      return { statusCode, error: note, durationMs: elapsed(), ...(retryAfter === undefined ? {} : { retryAfter }) };
    } catch (error) {
      if (statusCode !== null) return { statusCode, error: note, durationMs: elapsed() };
      return { statusCode: null, error: describe(error, timedOut, options.timeoutMs), durationMs: elapsed() };
    } finally {
      clearTimeout(deadline);
    }
  };

  return {
    send,
    async close() {
      await agent.close();
    },
  };
}
