import { createHmac, randomBytes } from 'node:crypto';

/** A new signing secret: `whsec_` + base64 of 32 random bytes (Standard Webhooks: 24 to 64 bytes). */
export function newWebhookSecret(): string {
  return `whsec_${randomBytes(32).toString('base64')}`;
}

/**
 * The Standard Webhooks headers for one attempt: `webhook-signature` is `v1,` + base64 HMAC-SHA256 of
 * "id.timestamp.body" under the secret's bytes. The id stays the same across retries (receivers
 * deduplicate by it); the timestamp is the attempt's, so receivers can refuse old replays. Signed with
 * node:crypto (native HMAC, several times cheaper than the `standardwebhooks` package's JS one); the tests
 * verify every delivery with that package.
 */
export function signedHeaders(input: { secret: string; messageId: string; at: Date; body: string }): Record<string, string> {
  const timestamp = String(Math.floor(input.at.getTime() / 1000));
  const key = Buffer.from(input.secret.replace(/^whsec_/, ''), 'base64');
  const signature = createHmac('sha256', key).update(`${input.messageId}.${timestamp}.${input.body}`).digest('base64');
  return { 'webhook-id': input.messageId, 'webhook-timestamp': timestamp, 'webhook-signature': `v1,${signature}` };
}
