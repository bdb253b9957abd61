import { isUtf8 } from 'node:buffer';
import type { Context } from 'koa';
import { type FieldError, problem, validationFailed } from '../errors/problem';

export const MAX_BODY_BYTES = 64 * 1024;

/**
 * The body's bytes, read with plain stream events (an async iterator costs several extra ticks and
 * allocations a request, and most bodies arrive in the same packet as the headers).
 */
function readRaw(ctx: Context): Promise<Buffer> {
  const declared = Number(ctx.get('Content-Length') || '0');
  if (declared > MAX_BODY_BYTES) return Promise.reject(tooLarge());
  const request = ctx.req;
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_BODY_BYTES) {
        cleanup();
        // Stop buffering what follows. After the 413, Node reads and drops the rest of the body (bounded by
        // its request timeout) and keeps the connection alive.
        request.pause();
        reject(tooLarge());
        return;
      }
      chunks.push(chunk);
    };
    const onEnd = () => {
      cleanup();
      resolve(chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks, size));
    };
    // The client went away mid-body: its request, not a failure of the server (nor of the database, as the
    // socket's ECONNRESET would be read); nobody is left to answer.
    const onError = () => {
      cleanup();
      reject(cutShort());
    };
    const onClose = () => {
      cleanup();
      reject(cutShort());
    };
    function cleanup() {
      request.off('data', onData);
      request.off('end', onEnd);
      request.off('error', onError);
      request.off('close', onClose);
    }
    if (request.readableEnded) {
      resolve(Buffer.alloc(0));
      return;
    }
    if (request.complete) {
      // The whole body came with the headers (the usual case): take what is buffered, with no flowing mode.
      const buffered = request.read() as Buffer | null;
      if (buffered === null) resolve(Buffer.alloc(0));
      else if (buffered.length > MAX_BODY_BYTES) reject(tooLarge());
      else resolve(buffered);
      return;
    }
    request.on('data', onData);
    request.on('end', onEnd);
    request.on('error', onError);
    request.on('close', onClose);
  });
}

const tooLarge = () => problem('PAYLOAD_TOO_LARGE', `Request bodies are limited to ${MAX_BODY_BYTES} bytes.`);
const cutShort = () => problem('MALFORMED_REQUEST', 'The client closed the connection before the whole body arrived.');

/** A surrogate code unit not in a pair (with the u flag, a well-formed pair is one code point and does not match). */
const LONE_SURROGATE = /[\uD800-\uDFFF]/u;

/** Deeper than any request schema goes; a deeper body is refused before anything walks it recursively. */
const MAX_DEPTH = 64;

/**
 * Where the body holds a NUL character (`\u0000`) or a lone UTF-16 surrogate (`\ud800` escaped in the JSON),
 * neither of which PostgreSQL text or jsonb can store, nests deeper than MAX_DEPTH, or names a field
 * `__proto__` (which a record's validation would drop without a word): a 422, not a database error, a stack overflow
 * or lost input. Walked with an explicit stack, not recursion.
 */
function unacceptableParts(body: unknown): FieldError[] {
  const errors: FieldError[] = [];
  const stack: Array<{ value: unknown; path: string[] }> = [{ value: body, path: [] }];
  for (let next = stack.pop(); next !== undefined; next = stack.pop()) {
    const { value, path } = next;
    if (typeof value === 'string') {
      if (value.includes('\u0000'))
        errors.push({ path: path.join('.'), message: 'Must not contain NUL (\\u0000) characters' });
      else if (LONE_SURROGATE.test(value))
        errors.push({ path: path.join('.'), message: 'Must be well-formed Unicode (no lone \\ud800-\\udfff escapes)' });
      continue;
    }
    if (value === null || typeof value !== 'object') continue;
    if (path.length >= MAX_DEPTH) {
      errors.push({ path: path.join('.'), message: `Must not nest more than ${MAX_DEPTH} levels deep` });
      continue;
    }
    const entries = Object.entries(value as Record<string, unknown>);
    for (const [key] of entries) {
      if (key.includes('\u0000'))
        errors.push({
          path: [...path, key].join('.'),
          message: 'Field names must not contain NUL (\\u0000) characters',
        });
      else if (LONE_SURROGATE.test(key))
        errors.push({ path: [...path, key].join('.'), message: 'Field names must be well-formed Unicode' });
      // JSON.parse keeps it as a field; zod's records (customFields) drop it without a word (strict objects
      // already refuse it as unknown): refused everywhere, so no such field is silently lost.
      else if (key === '__proto__')
        errors.push({ path: [...path, key].join('.'), message: 'The field name __proto__ is not accepted' });
    }
    for (const [key, item] of entries.reverse()) stack.push({ value: item, path: [...path, key] });
  }
  return errors;
}

/**
 * The server decodes no content coding: a body labelled gzip (or anything but identity) is refused, not
 * read as if it were plain. RFC 7694: the 415 names what is accepted.
 */
function refuseContentEncoding(ctx: Context): void {
  const codings = ctx
    .get('Content-Encoding')
    .split(',')
    .map((coding) => coding.trim().toLowerCase())
    .filter((coding) => coding !== '');
  const unsupported = codings.find((coding) => coding !== 'identity');
  if (unsupported === undefined) return;
  throw problem(
    'UNSUPPORTED_MEDIA_TYPE',
    `Content-Encoding ${unsupported} is not accepted; send the body uncompressed.`,
    {
      headers: { 'Accept-Encoding': 'identity' },
    },
  );
}

/**
 * Reads a JSON body (docs/api.md, Basics): over 64 KiB → 413, a non-JSON Content-Type or any
 * Content-Encoding → 415, bytes that are not UTF-8 or text that is not JSON → 400. An empty body reads as
 * undefined, so actions whose fields are all optional may send none.
 */
export async function readJsonBody(ctx: Context): Promise<unknown> {
  const raw = await readRaw(ctx);
  if (raw.length === 0) return undefined;
  refuseContentEncoding(ctx);
  const type = ctx.get('Content-Type');
  if (!/^application\/([\w.+-]+\+)?json\s*(;|$)/i.test(type)) {
    throw problem('UNSUPPORTED_MEDIA_TYPE', 'Send the body as JSON with Content-Type: application/json.');
  }
  // Decoding would put U+FFFD in place of each bad byte and store it: refused, as a lone surrogate is.
  if (!isUtf8(raw)) throw problem('MALFORMED_JSON', 'The request body is not valid UTF-8.');
  let body: unknown;
  try {
    body = JSON.parse(raw.toString('utf8')) as unknown;
  } catch {
    throw problem('MALFORMED_JSON', 'The request body is not valid JSON.');
  }
  const unacceptable = unacceptableParts(body);
  if (unacceptable.length > 0) throw validationFailed(unacceptable);
  return body;
}

/**
 * Reads a text body of one media type (`text/csv`: a host import): the same limits as JSON (64 KiB, no
 * Content-Encoding), another Content-Type → 415, bytes that are not UTF-8 → 400, NUL characters → 422.
 */
export async function readTextBody(ctx: Context, mediaType: string): Promise<string> {
  const raw = await readRaw(ctx);
  refuseContentEncoding(ctx);
  const type = ctx.get('Content-Type').split(';')[0]?.trim().toLowerCase();
  if (raw.length > 0 && type !== mediaType) {
    throw problem('UNSUPPORTED_MEDIA_TYPE', `Send the body as ${mediaType} with Content-Type: ${mediaType}.`);
  }
  if (!isUtf8(raw)) throw problem('MALFORMED_REQUEST', 'The request body is not valid UTF-8.');
  const text = raw.toString('utf8');
  if (text.includes('\u0000')) throw validationFailed([{ path: '', message: 'Must not contain NUL characters' }]);
  return text;
}
