import { type KeyObject, createHmac, createSecretKey, randomBytes } from 'node:crypto';

/** A new signing secret: `whsec_` + base64 of 32 random bytes (Standard Webhooks: 24 to 64 bytes). */
export function newWebhookSecret(): string {
  return `whsec_${randomBytes(32).toString('base64')}`;
}

/** Decoded signing keys by secret (a dispatcher signs for few subscriptions, many times each). */
const keys = new Map<string, KeyObject>();
const MAX_KEYS = 1_000;

function keyOf(secret: string): KeyObject {
  let key = keys.get(secret);
  if (!key) {
    if (keys.size >= MAX_KEYS) keys.clear();
    key = createSecretKey(Buffer.from(secret.replace(/^whsec_/, ''), 'base64'));
    keys.set(secret, key);
  }
  return key;
}

/**
 * The Standard Webhooks headers for one attempt: `v1,` + base64 HMAC-SHA256 of "id.timestamp.body". The id
 * stays across retries (receivers deduplicate by it); the timestamp is the attempt's. Signed with node:crypto
 * (several times cheaper than the `standardwebhooks` package, which the tests verify every delivery with).
 */
export function signedHeaders(input: {
  secret: string;
  messageId: string;
  at: Date;
  body: string;
}): Record<string, string> {
  const timestamp = String(Math.floor(input.at.getTime() / 1000));
  const signature = createHmac('sha256', keyOf(input.secret))
    .update(`${input.messageId}.${timestamp}.${input.body}`)
    .digest('base64');
  return { 'webhook-id': input.messageId, 'webhook-timestamp': timestamp, 'webhook-signature': `v1,${signature}` };
}
