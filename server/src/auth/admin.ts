import { createHash, timingSafeEqual } from 'node:crypto';
import { notFound, problem } from '../errors/problem';
import { bearerOf } from './authenticate';

const digest = (value: string) => createHash('sha256').update(value).digest();

/** The management API exists only with ADMIN_TOKEN set; its bearer is compared in constant time. */
export function authenticateAdmin(adminToken: string | undefined, authorization: string): void {
  if (!adminToken) throw notFound('The management API is disabled: set ADMIN_TOKEN to enable it.');
  const sent = bearerOf(authorization);
  if (sent === undefined || !timingSafeEqual(digest(sent), digest(adminToken))) {
    throw problem('UNAUTHENTICATED', 'Send Authorization: Bearer <ADMIN_TOKEN>.', {
      headers: { 'WWW-Authenticate': sent === undefined ? 'Bearer' : 'Bearer error="invalid_token"' },
    });
  }
}
