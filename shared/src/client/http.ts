import type { z } from 'zod';
import { Problem } from '../schemas/common';

/** The fetch the client uses: the platform's (browser, Electron, a test network). */
export type FetchLike = (url: string, init: RequestInit) => Promise<Response>;

/**
 * What became of one request. The sync engine decides from `kind` alone whether an action is done,
 * retried or shown to a person, so every failure mode is a value here, never an exception.
 */
export type HttpOutcome<T> =
  | { kind: 'ok'; status: number; value: T; replayed: boolean; headers: Headers }
  /** 304 to a conditional GET: what the caller holds is still current. */
  | { kind: 'notModified'; headers: Headers }
  | { kind: 'refused'; status: number; problem: Problem | null; retryAfterMs: number | undefined }
  /**
   * No answer from the server: offline, connection lost, timed out, or a 2xx that is not the API's (a
   * captive portal's page). The server may or may not have acted.
   */
  | { kind: 'unreachable'; message: string }
  /** A 2xx whose body breaks the wire contract. */
  | { kind: 'malformed'; status: number; message: string };

export interface HttpRequest {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  path: string;
  body?: unknown;
  /** A body that is not JSON (a CSV import), sent as it is with its media type; instead of `body`. */
  text?: { content: string; contentType: string };
  idempotencyKey?: string;
  headers?: Record<string, string>;
}

export interface HttpTransport {
  baseUrl: string;
  /** The bearer token; none for a browser signed in with the session cookie (its fetch sends the cookie). */
  token?: string;
  fetch: FetchLike;
  /** A request with no answer by then counts as unreachable (and is retried with its key). */
  timeoutMs: number;
  /** The device clock, to read a `Retry-After` given as a date. */
  now: () => number;
  /** Told the server's time (its `Date` header, in ms) with every answer that is the API's (JSON). */
  onServerTime?: (serverMs: number) => void;
}

/** `Retry-After` as seconds or an HTTP date, in milliseconds from `nowMs`. */
export function parseRetryAfter(header: string | null, nowMs: number): number | undefined {
  if (header === null || header.trim() === '') return undefined;
  const seconds = Number(header);
  if (Number.isFinite(seconds)) return Math.max(0, seconds * 1000);
  const at = Date.parse(header);
  return Number.isNaN(at) ? undefined : Math.max(0, at - nowMs);
}

async function readJson(response: Response): Promise<unknown> {
  const text = await response.text();
  if (text === '') return null;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return null;
  }
}

/** `application/json`, `application/problem+json` and the like. */
const isJson = (contentType: string | null) =>
  contentType !== null && /^application\/([\w.+-]+\+)?json\s*(;|$)/i.test(contentType);

export const NOT_THE_SERVER =
  'The answer did not come from the Gatehouse server (a captive portal or proxy in the way?).';

const describe = (error: unknown) => (error instanceof Error ? error.message : String(error));

/** Sends one request and reads the answer against `schema` (the shared zod schema of the wire contract). */
export async function send<T>(
  transport: HttpTransport,
  request: HttpRequest,
  schema: z.ZodType<T>,
): Promise<HttpOutcome<T>> {
  const headers: Record<string, string> = { ...request.headers };
  if (transport.token !== undefined) headers.Authorization = `Bearer ${transport.token}`;
  if (request.body !== undefined) headers['Content-Type'] = 'application/json';
  if (request.text !== undefined) headers['Content-Type'] = request.text.contentType;
  if (request.idempotencyKey !== undefined) headers['Idempotency-Key'] = request.idempotencyKey;
  let response: Response;
  let payload: unknown;
  try {
    response = await transport.fetch(`${transport.baseUrl}${request.path}`, {
      method: request.method,
      headers,
      body: request.text?.content ?? (request.body === undefined ? undefined : JSON.stringify(request.body)),
      signal: AbortSignal.timeout(transport.timeoutMs),
    });
    // The body is part of the answer: a connection lost while reading it is as good as no answer.
    payload = await readJson(response);
  } catch (error) {
    return { kind: 'unreachable', message: describe(error) };
  }
  const serverDate = response.headers.get('Date');
  if (
    transport.onServerTime &&
    serverDate &&
    (response.status === 304 || isJson(response.headers.get('Content-Type')))
  ) {
    const serverMs = Date.parse(serverDate);
    if (Number.isFinite(serverMs)) transport.onServerTime(serverMs);
  }
  if (response.status === 304) return { kind: 'notModified', headers: response.headers };
  // 204 has no body, so no JSON type either: the schema reads it as null.
  if (response.status === 204) {
    const parsed = schema.safeParse(null);
    if (!parsed.success) return { kind: 'malformed', status: 204, message: parsed.error.message };
    return { kind: 'ok', status: 204, value: parsed.data, replayed: false, headers: response.headers };
  }
  if (response.status >= 200 && response.status < 300) {
    // The API always answers JSON: anything else is a captive portal or a proxy speaking for it, so the
    // request did not reach the server (and goes again with its key). (A redirect is followed, as to https.)
    if (!isJson(response.headers.get('Content-Type'))) {
      return { kind: 'unreachable', message: NOT_THE_SERVER };
    }
    const parsed = schema.safeParse(payload);
    if (!parsed.success) return { kind: 'malformed', status: response.status, message: parsed.error.message };
    const replayed = response.headers.get('Idempotent-Replayed') === 'true';
    return { kind: 'ok', status: response.status, value: parsed.data, replayed, headers: response.headers };
  }
  const problem = Problem.safeParse(payload);
  // Every 4xx of the API is problem+json: one that is not (a proxy's or portal's 403, 404 or 407 page) did
  // not come from the API either, and the request goes again with its key rather than to Needs attention.
  if (response.status >= 400 && response.status < 500 && !problem.success)
    return { kind: 'unreachable', message: NOT_THE_SERVER };
  return {
    kind: 'refused',
    status: response.status,
    problem: problem.success ? problem.data : null,
    retryAfterMs: parseRetryAfter(response.headers.get('Retry-After'), transport.now()),
  };
}
