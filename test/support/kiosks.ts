import type { KioskMode, PairedKiosk } from '../../shared/src/schemas/kiosks';
import type { Principal } from '../../server/src/auth/principal';
import { createKiosk } from '../../server/src/commands/kiosks';
import { inTransaction } from '../../server/src/db/query';
import { apiClient } from './http';
import type { TestServer } from './testServer';

type Harness = Pick<TestServer, 'database' | 'baseUrl'>;

/** Adds a kiosk as an owner would (no audit row): its id, token id and first pairing code. */
export async function addKiosk(
  server: Harness,
  input: { accountId: number; siteId: number; mode?: KioskMode; name?: string },
): Promise<{ kioskId: number; tokenId: number; pairingCode: string }> {
  const principal: Principal = {
    actor: { type: 'token', id: 0, name: 'test' },
    accountId: input.accountId,
    scopes: new Set(),
    source: 'API',
    allSites: true,
    tokenId: null,
    userId: null,
  };
  const request = { siteId: input.siteId, mode: input.mode ?? 'visitor', name: input.name ?? 'Test kiosk' };
  const created = await inTransaction(server.database, (db) =>
    createKiosk(db, { principal, request, now: new Date() }),
  );
  return { kioskId: created.kiosk.id, tokenId: created.kiosk.token_id, pairingCode: created.pairingCode };
}

/** A kiosk added and paired over HTTP, as a tablet pairs: its answer (with the token). */
export async function pairedKiosk(
  server: Harness,
  input: { accountId: number; siteId: number; mode?: KioskMode; name?: string },
): Promise<PairedKiosk> {
  const { pairingCode } = await addKiosk(server, input);
  const answer = await apiClient(server.baseUrl).post<PairedKiosk>('/v1/kiosk/pair', { code: pairingCode });
  if (answer.status !== 200) throw new Error(`pairing failed: ${answer.status} ${answer.text}`);
  return answer.body;
}
