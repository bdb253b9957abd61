import { expect } from 'vitest';
import type { Invitation, InvitationPass } from '../../shared/src/schemas/invitations';
import type { ApiClient } from './http';

const HOUR = 3_600_000;

/**
 * Invites a visitor to `siteId`, expected now and valid from an hour ago for a day unless `body` says
 * otherwise (so a check-in now is within its validity whatever the time of day); no email unless asked.
 */
export async function invite(api: ApiClient, siteId: number, body: Record<string, unknown> = {}): Promise<Invitation> {
  const now = Date.now();
  const response = await api.post<Invitation>('/v1/invitations', {
    siteId,
    person: { firstName: 'Ada', lastName: 'Lovelace' },
    expectedAt: new Date(now).toISOString(),
    validFrom: new Date(now - HOUR).toISOString(),
    validUntil: new Date(now + 24 * HOUR).toISOString(),
    ...body,
  });
  expect(response.status, response.text).toBe(201);
  return response.body;
}

/** The invitation's pass as an integrator reads it. */
export async function passOf(api: ApiClient, invitationId: number): Promise<InvitationPass> {
  const response = await api.get<InvitationPass>(`/v1/invitations/${invitationId}/pass`);
  expect(response.status, response.text).toBe(200);
  return response.body;
}

/** A pass's payload, read without checking its signature (what a test wants to look at). */
export function passClaims(token: string): Record<string, unknown> {
  const payload = token.split('.')[1] ?? '';
  return JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as Record<string, unknown>;
}

/** A pass's header, read without checking anything. */
export function passHeader(token: string): Record<string, unknown> {
  return JSON.parse(Buffer.from(token.split('.')[0] ?? '', 'base64url').toString('utf8')) as Record<string, unknown>;
}
