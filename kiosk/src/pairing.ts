import { createKioskLinkClient } from '../../shared/src/client/administration';
import { normalizePairingCode, parsePairingLink } from '../../shared/src/schemas/kiosks';
import type { KioskDatabase } from './data/database';
import { KioskSettings, saveSettings } from './data/settings';
import type { FetchLike } from './platform/platform';

/**
 * What was typed (or scanned) into the Pairing code field: a QR code's text `gatehouse://pair?server=…&code=…`
 * gives the server address too, even scanned after something typed; anything else is the code as typed.
 */
export function readPairingInput(text: string): { serverUrl?: string; code: string } {
  const start = text.toLowerCase().lastIndexOf('gatehouse://');
  const link = start < 0 ? undefined : parsePairingLink(text.slice(start));
  return link ? { serverUrl: link.server, code: link.code } : { code: text };
}

export type PairingResult = { ok: true; settings: KioskSettings } | { ok: false; message: string };

export const PAIRING_CODE_INVALID_WORDS = 'This pairing code is wrong, used or expired.';

/** "Too many wrong codes. Try again in 15 minutes." (rounded up, never "0 minutes"). */
export function tooManyCodesWords(retryAfterMs: number | undefined): string {
  const minutes = Math.max(1, Math.ceil((retryAfterMs ?? 60_000) / 60_000));
  return `Too many wrong codes. Try again in ${minutes} minute${minutes === 1 ? '' : 's'}.`;
}

/**
 * Exchanges a pairing code for the kiosk's token, site and mode (`POST /v1/kiosk/pair`), and saves them, so
 * no token is ever typed. Every failure is a sentence for the setup screen. A pairing for another site is
 * refused while actions are not synced (saveSettings), as a change of site by hand is.
 */
export async function pairWithCode(
  db: KioskDatabase,
  input: { serverUrl: string; code: string },
  deps: { fetch: FetchLike; now: () => number; timeoutMs?: number },
): Promise<PairingResult> {
  const serverUrl = input.serverUrl.trim();
  const code = normalizePairingCode(input.code);
  if (!KioskSettings.shape.serverUrl.safeParse(serverUrl).success)
    return { ok: false, message: 'Please give the server address, as https://gatehouse.example.com.' };
  if (code === '') return { ok: false, message: 'Please give the pairing code shown in the console.' };
  const client = createKioskLinkClient({
    baseUrl: serverUrl,
    fetch: deps.fetch,
    now: deps.now,
    timeoutMs: deps.timeoutMs ?? 10_000,
  });
  const outcome = await client.pair(code);
  if (outcome.kind === 'unreachable')
    return { ok: false, message: `Cannot reach ${serverUrl}. Check the address and the network.` };
  if (outcome.kind === 'refused') {
    if (outcome.status === 422 && outcome.problem?.code === 'PAIRING_CODE_INVALID')
      return { ok: false, message: PAIRING_CODE_INVALID_WORDS };
    if (outcome.status === 429) return { ok: false, message: tooManyCodesWords(outcome.retryAfterMs) };
    if (outcome.status === 404)
      return {
        ok: false,
        message: 'This server does not take pairing codes. Check the address, or pair with a kiosk token.',
      };
  }
  if (outcome.kind !== 'ok')
    return { ok: false, message: 'The server gave an unexpected answer. Check the server address.' };
  const { token, siteId, mode, name } = outcome.value;
  if (mode !== 'visitor' && mode !== 'gate')
    return { ok: false, message: `This kiosk's mode (${mode}) is newer than this app. Update the app.` };
  const settings = KioskSettings.parse({ serverUrl, token, siteId, mode, kioskName: name });
  const change = await saveSettings(db, settings);
  if (!change.ok) {
    const waiting = `${change.pending} action${change.pending === 1 ? ' is' : 's are'} not synced yet`;
    return {
      ok: false,
      message: `This code pairs the kiosk with another site or server, but ${waiting}. Ask a manager for a new code for this kiosk's site.`,
    };
  }
  return { ok: true, settings };
}
