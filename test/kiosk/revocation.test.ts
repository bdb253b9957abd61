import { describe, expect, it } from 'vitest';
import { createRevocation } from '../../kiosk/src/sync/revocation';

// Which answers mean "this kiosk's token is no longer accepted" (docs/kiosk-sync.md, Pairing, heartbeat, revocation).

const answer = (status: number, contentType: string) => async () =>
  new Response('{}', { status, headers: { 'Content-Type': contentType } });

describe('revocation', () => {
  it("is the API's 401 (problem+json), not a proxy's 401 page nor another refusal", async () => {
    const seen: boolean[] = [];
    const revocation = createRevocation();
    revocation.revoked.subscribe((revoked) => seen.push(revoked));
    await revocation.watch(answer(401, 'text/html'))('http://x/v1/sites', {});
    await revocation.watch(answer(403, 'application/problem+json'))('http://x/v1/sites', {});
    await revocation.watch(answer(200, 'application/json'))('http://x/v1/sites', {});
    expect(revocation.isRevoked()).toBe(false);
    const response = await revocation.watch(answer(401, 'application/problem+json; charset=utf-8'))(
      'http://x/v1/sites',
      {},
    );
    // The answer still reaches whoever asked, unread.
    expect(response.status).toBe(401);
    expect(await response.json()).toEqual({});
    await revocation.watch(answer(401, 'application/problem+json'))('http://x/v1/sites', {});
    expect(revocation.isRevoked()).toBe(true);
    // Told at once on subscribing, then once on the change; never back.
    expect(seen).toEqual([false, true]);
  });
});
