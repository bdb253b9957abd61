import { type AuthenticationInput, authenticate } from '../auth/authenticate';
import type { Principal } from '../auth/principal';
import type { Executor } from '../db/query';
import { ProblemError } from '../errors/problem';
import type { StreamAccess } from '../live/eventStream';
import { viewableSites } from './viewableSites';

/** What a principal's event stream may carry: its account, its sites as they are now, its scopes. */
export async function streamAccessOf(db: Executor, principal: Principal): Promise<StreamAccess> {
  const sites = await viewableSites(db, principal);
  return {
    accountId: principal.accountId,
    siteIds: sites === undefined ? null : new Set(sites),
    scopes: principal.scopes,
  };
}

/** The credentials a stream was opened with, to check again while it runs. */
export type StreamCredentials = Pick<AuthenticationInput, 'authorization' | 'sessionId'>;

/**
 * The stream's access checked again as a new request would be (docs/api.md, Event stream): undefined once
 * the token is revoked or expired, the session ended or the user disabled; otherwise its sites and scopes
 * now. A database failure throws (the stream goes on until a check can decide).
 */
export async function currentStreamAccess(
  db: Executor,
  credentials: StreamCredentials,
): Promise<StreamAccess | undefined> {
  try {
    const { principal } = await authenticate(db, { ...credentials, now: new Date() });
    return await streamAccessOf(db, principal);
  } catch (error) {
    if (error instanceof ProblemError && error.status === 401) return undefined;
    throw error;
  }
}
