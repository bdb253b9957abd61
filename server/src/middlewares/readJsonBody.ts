import type { Context } from 'koa';
import { problem } from '../errors/problem';

export const MAX_BODY_BYTES = 64 * 1024;

async function readRaw(ctx: Context): Promise<Buffer> {
  const declared = Number(ctx.get('Content-Length') || '0');
  if (declared > MAX_BODY_BYTES) throw tooLarge();
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of ctx.req) {
    const buffer = chunk as Buffer;
    size += buffer.length;
    if (size > MAX_BODY_BYTES) throw tooLarge();
    chunks.push(buffer);
  }
  return Buffer.concat(chunks);
}

const tooLarge = () => problem('PAYLOAD_TOO_LARGE', `Request bodies are limited to ${MAX_BODY_BYTES} bytes.`);

/**
 * Reads a JSON body (CONTRACT §1): over 64 KiB → 413, a non-JSON Content-Type → 415, unparsable → 400.
 * An empty body reads as undefined, so actions whose fields are all optional may send none.
 */
export async function readJsonBody(ctx: Context): Promise<unknown> {
  const raw = await readRaw(ctx);
  if (raw.length === 0) return undefined;
  const type = ctx.get('Content-Type');
  if (!/^application\/([\w.+-]+\+)?json\s*(;|$)/i.test(type)) {
    throw problem('UNSUPPORTED_MEDIA_TYPE', 'Send the body as JSON with Content-Type: application/json.');
  }
  try {
    return JSON.parse(raw.toString('utf8')) as unknown;
  } catch {
    throw problem('MALFORMED_JSON', 'The request body is not valid JSON.');
  }
}
