import net from 'node:net';
import type { IncomingHttpHeaders } from 'node:http';
import { Agent, type Dispatcher } from 'undici';
import { guardedLookup, hostOf, isGlobalUnicast } from './addressPolicy';
import { OriginQueue } from './originQueue';

export interface SendResult {
  /**
   * False when the request was given up before it could be written to a connection (it waited longer than
   * `queueTimeoutMs` for one): the receiver cannot have seen it, so it is no attempt and has no outcome.
   * Everything else is an attempt, a refused or failed connection included.
   */
  attempted: boolean;
  /** The receiver's status, or null when no response came. */
  statusCode: number | null;
  /** Why the attempt failed without a usable response (or why a 3xx was not followed); else null. */
  error: string | null;
  /** From leaving the sender's queue (connecting included) to the outcome. */
  durationMs: number;
  /** When the attempt left the sender's queue (its headers were made then): the attempt's time in the log. */
  at: Date;
  /** The raw `Retry-After` header, if any. */
  retryAfter?: string;
}

/** Headers as they are, or made when the attempt leaves the queue (a signature's timestamp then is the sending time). */
export type AttemptHeaders = Record<string, string> | ((at: Date) => Record<string, string>);

export interface Sender {
  send: (input: { url: string; headers: AttemptHeaders; body: string }) => Promise<SendResult>;
  /** Closes the kept-alive connections. */
  close: () => Promise<void>;
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

/** What an attempt that got no answer before its deadline says (the log's error, and undici's abort reason). */
const noResponseWithin = (timeoutMs: number) => `No response within ${timeoutMs} ms`;
const notSentWithin = (queueTimeoutMs: number) =>
  `Not sent within ${queueTimeoutMs} ms (no free connection to the receiver)`;

function describe(error: unknown, timedOut: boolean, timeoutMs: number): string {
  if (timedOut) return noResponseWithin(timeoutMs);
  const codes = codesOf(error);
  const refused = codes.find((entry) => entry.code === 'EPRIVATEADDRESS');
  if (refused) return `Refused: ${refused.message}`.slice(0, MAX_ERROR_LENGTH);
  const known = codes.map((entry) => KNOWN_ERRORS[entry.code]).find((text) => text !== undefined);
  return (known ?? (error instanceof Error && error.message ? error.message : 'Request failed')).slice(
    0,
    MAX_ERROR_LENGTH,
  );
}

/** The one `Retry-After` or `Location` value of a response header (undici gives repeated headers as arrays). */
function single(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

/**
 * The signed headers plus the sender's own, which win. Copied and then set, not spread into a literal that
 * adds properties (V8 makes that ~30 times slower).
 */
function withOwnHeaders(signed: Record<string, string>): Record<string, string> {
  const headers = Object.assign({}, signed);
  headers['content-type'] = 'application/json';
  headers['user-agent'] = 'Gatehouse-Webhooks/1';
  return headers;
}

/** The two bounds of an attempt. */
interface AttemptLimits {
  /** From writing the request to the end of the response (10 s: docs/webhooks.md). */
  timeoutMs: number;
  /** From `send` to writing the request: waiting for a free connection, and connecting. */
  queueTimeoutMs: number;
}

/**
 * One attempt as undici's dispatch handler: it settles once, with the status, or why there was none, or
 * unattempted when no connection came in time. The deadline starts when the request is written, not queued:
 * waiting for a connection is not the receiver being slow. The body is drained only to reuse the connection.
 */
class Attempt implements Dispatcher.DispatchHandler {
  private settled = false;
  private controller: Dispatcher.DispatchController | undefined;
  private statusCode: number | null = null;
  private retryAfter: string | undefined;
  private note: string | null = null;
  private received = 0;
  private started = performance.now();
  private at = new Date();
  private deadline: NodeJS.Timeout | undefined;
  private readonly unsent: NodeJS.Timeout;

  constructor(
    readonly request: Dispatcher.DispatchOptions,
    private readonly headers: AttemptHeaders,
    private readonly limits: AttemptLimits,
    private readonly settle: (result: SendResult) => void,
  ) {
    this.unsent = setTimeout(() => this.giveUp(), limits.queueTimeoutMs);
  }

  /**
   * Leaves the sender's queue for undici: the duration counts from here, connecting included, and the
   * headers are made now, so a signature's timestamp is the sending time, not the time it was queued.
   */
  dispatched(): void {
    this.started = performance.now();
    this.at = new Date();
    this.request.headers = withOwnHeaders(typeof this.headers === 'function' ? this.headers(this.at) : this.headers);
  }

  onRequestStart(controller: Dispatcher.DispatchController): void {
    this.controller = controller;
    // Given up while connecting: stop before anything is written.
    if (this.settled) {
      controller.abort(new Error(notSentWithin(this.limits.queueTimeoutMs)));
      return;
    }
    clearTimeout(this.unsent);
    this.deadline = setTimeout(() => this.timeOut(), this.limits.timeoutMs);
  }

  onResponseStart(_controller: Dispatcher.DispatchController, statusCode: number, headers: IncomingHttpHeaders): void {
    // undici passes informational answers (102, 103) here too: they are not the outcome.
    if (statusCode < 200) return;
    this.statusCode = statusCode;
    this.retryAfter = single(headers['retry-after']);
    if (statusCode >= 300 && statusCode < 400) {
      this.note = `Redirect to ${single(headers.location) ?? '(no Location)'} not followed`;
    }
  }

  onResponseData(controller: Dispatcher.DispatchController, chunk: Buffer): void {
    this.received += chunk.length;
    // A receiver that sends more than this is cut off (its status still counts).
    if (this.received > MAX_RESPONSE_BYTES) controller.abort(new Error('Response body too large'));
  }

  onResponseEnd(): void {
    this.finish(this.answered());
  }

  onResponseError(_controller: Dispatcher.DispatchController | undefined, error: Error): void {
    this.fail(error, false);
  }

  /** Ends the attempt on `error` (or the deadline): with the status if one came, else with why none did. */
  fail(error: unknown, timedOut: boolean): void {
    this.finish(
      this.statusCode !== null
        ? this.answered()
        : {
            attempted: true,
            statusCode: null,
            error: describe(error, timedOut, this.limits.timeoutMs),
            durationMs: this.elapsed(),
            at: this.at,
          },
    );
  }

  private timeOut(): void {
    this.controller?.abort(new Error(noResponseWithin(this.limits.timeoutMs)));
    this.fail(undefined, true);
  }

  /** No connection took the request in time. If undici is connecting for it, `onRequestStart` stops it. */
  private giveUp(): void {
    this.finish({
      attempted: false,
      statusCode: null,
      error: notSentWithin(this.limits.queueTimeoutMs),
      durationMs: 0,
      at: this.at,
    });
  }

  private answered(): SendResult {
    const result: SendResult = {
      attempted: true,
      statusCode: this.statusCode,
      error: this.note,
      durationMs: this.elapsed(),
      at: this.at,
    };
    if (this.retryAfter !== undefined) result.retryAfter = this.retryAfter;
    return result;
  }

  private elapsed(): number {
    return Math.max(0, Math.round(performance.now() - this.started));
  }

  private finish(result: SendResult): void {
    if (this.settled) return;
    this.settled = true;
    clearTimeout(this.unsent);
    clearTimeout(this.deadline);
    this.settle(result);
  }
}

/** Hands an attempt to undici; a request it refuses outright is a failed attempt. */
function dispatchTo(agent: Agent, attempt: Attempt): void {
  attempt.dispatched();
  try {
    agent.dispatch(attempt.request, attempt);
  } catch (error) {
    attempt.fail(error, false);
  }
}

/**
 * POSTs webhook bodies through undici's dispatcher with its own handler: one deadline per exchange, no
 * redirects, addresses checked as the socket connects (a name cannot pass the check and resolve elsewhere),
 * and no more attempts per receiver than it has connections (the rest wait in an `OriginQueue`). No body
 * stream or AbortSignal per attempt: they cost a quarter to a half of the dispatcher's CPU (bench/README.md).
 */
export function createSender(options: {
  allowPrivateUrls: boolean;
  timeoutMs: number;
  /** How long an attempt may wait for a connection (and connect) before it is given up unsent. */
  queueTimeoutMs?: number;
  connectionsPerOrigin?: number;
}): Sender {
  const connections = options.connectionsPerOrigin ?? 16;
  const limits: AttemptLimits = { timeoutMs: options.timeoutMs, queueTimeoutMs: options.queueTimeoutMs ?? 15_000 };
  const agent = new Agent({
    connections,
    headersTimeout: options.timeoutMs,
    bodyTimeout: options.timeoutMs,
    connect: { lookup: guardedLookup(options.allowPrivateUrls), timeout: options.timeoutMs },
  });
  const queue = new OriginQueue<Attempt>(connections, (attempt) => dispatchTo(agent, attempt));

  const send: Sender['send'] = (input) => {
    const url = new URL(input.url);
    const host = hostOf(url);
    // A literal IP never goes through `lookup`: check it here.
    if (!options.allowPrivateUrls && net.isIP(host) && !isGlobalUnicast(host)) {
      return Promise.resolve({
        attempted: true,
        statusCode: null,
        error: `Refused: ${host} is not a public address (private, loopback, link-local or another special-purpose range)`,
        durationMs: 0,
        at: new Date(),
      });
    }
    return new Promise<SendResult>((resolve) => {
      const request: Dispatcher.DispatchOptions = {
        origin: url.origin,
        path: `${url.pathname}${url.search}`,
        method: 'POST',
        body: input.body,
      };
      const attempt: Attempt = new Attempt(request, input.headers, limits, (result) => {
        queue.leave(url.origin, attempt);
        resolve(result);
      });
      queue.enter(url.origin, attempt);
    });
  };

  return {
    send,
    async close() {
      await agent.close();
    },
  };
}
