import { z } from 'zod';
import { Id, IntId, PageQuery, Text, Timestamp, page } from './common';
import { SiteIdList } from './audit';

export const kioskModes = ['visitor', 'gate'] as const;
export const KioskMode = z.enum(kioskModes);
export type KioskMode = z.infer<typeof KioskMode>;

/** A kiosk: a device's record with its KIOSK token, and what its last heartbeat said (docs/api.md, Kiosks). */
export const Kiosk = z.object({
  kioskId: Id,
  siteId: Id,
  mode: KioskMode,
  name: z.string(),
  tokenId: Id,
  createdAt: Timestamp,
  pairedAt: Timestamp.nullable(),
  lastSeenAt: Timestamp.nullable(),
  pending: z.number().int().nullable(),
  attention: z.number().int().nullable(),
  appVersion: z.string().nullable(),
});
export type Kiosk = z.infer<typeof Kiosk>;

export const KioskPage = page(Kiosk);
export type KioskPage = z.infer<typeof KioskPage>;

export const KioskListQuery = PageQuery.extend({ siteIds: SiteIdList.optional() });
export type KioskListQuery = z.infer<typeof KioskListQuery>;

export const CreateKioskRequest = z.strictObject({ siteId: IntId, mode: KioskMode, name: Text(200) });
export type CreateKioskRequest = z.infer<typeof CreateKioskRequest>;

/** A one-time pairing code (shown once; single use; 15 minutes). */
export const PairingCode = z.object({ pairingCode: z.string(), pairingExpiresAt: Timestamp });
export type PairingCode = z.infer<typeof PairingCode>;

export const CreatedKiosk = z.object({ kiosk: Kiosk, pairingCode: z.string(), pairingExpiresAt: Timestamp });
export type CreatedKiosk = z.infer<typeof CreatedKiosk>;

/** `POST /v1/kiosk/pair`: the code as typed or scanned (case, spaces and `-` do not matter). */
export const PairKioskRequest = z.strictObject({ code: z.string().min(1).max(64) });
export type PairKioskRequest = z.infer<typeof PairKioskRequest>;

/** What a paired device is configured with; `token` is shown only here. */
export const PairedKiosk = z.object({ token: z.string(), kioskId: Id, siteId: Id, mode: KioskMode, name: z.string() });
export type PairedKiosk = z.infer<typeof PairedKiosk>;

const Count = z.number().int().min(0).max(2_147_483_647);
export const HeartbeatRequest = z.strictObject({
  pending: Count,
  attention: Count,
  appVersion: z.string().min(1).max(64),
});
export type HeartbeatRequest = z.infer<typeof HeartbeatRequest>;

/** The characters of a pairing code: no 0/O or 1/I to confuse. */
export const PAIRING_ALPHABET = '23456789ABCDEFGHJKLMNPQRSTUVWXYZ';
export const PAIRING_CODE_LENGTH = 8;

/** A code as typed: upper case, without spaces or dashes (`abcd-efgh` is `ABCDEFGH`). */
export const normalizePairingCode = (typed: string): string => typed.replace(/[\s-]/g, '').toUpperCase();

/** The text of a pairing QR code: the server's origin and the code, for a scanner typing into the kiosk. */
export const pairingLink = (serverOrigin: string, code: string): string =>
  `gatehouse://pair?server=${encodeURIComponent(serverOrigin)}&code=${code}`;

/** The server and code of a scanned pairing QR text, or undefined when the text is not one. */
export function parsePairingLink(text: string): { server: string; code: string } | undefined {
  const match = /^gatehouse:\/\/pair\?(.*)$/i.exec(text.trim());
  if (!match) return undefined;
  const params = new URLSearchParams(match[1]);
  const server = params.get('server');
  const code = params.get('code');
  if (!server || !code) return undefined;
  return { server, code: normalizePairingCode(code) };
}
