import { type FormEvent, useState } from 'react';
import type { KioskDatabase } from '../../src/data/database';
import type { KioskSettings } from '../../src/data/settings';
import { sendsInTheClear } from '../../src/data/cleartext';
import { pairWithCode, readPairingInput } from '../../src/pairing';

interface PairWithCodeProps {
  device: KioskDatabase;
  serverUrl: string;
  onServerUrl: (serverUrl: string) => void;
  initialCode: string | undefined;
  onPaired: (settings: KioskSettings) => void;
}

/**
 * Server address and the pairing code from the console: Pair exchanges the code for the kiosk's token,
 * site and mode, so no token is typed. A scanner typing the QR code's text into the code field fills both.
 */
export function PairWithCode({ device, serverUrl, onServerUrl, initialCode, onPaired }: PairWithCodeProps) {
  const [code, setCode] = useState(initialCode ?? '');
  const [message, setMessage] = useState<string>();
  const [busy, setBusy] = useState(false);

  const typed = (text: string) => {
    const read = readPairingInput(text);
    if (read.serverUrl !== undefined) onServerUrl(read.serverUrl);
    setCode(read.code);
  };

  const pair = async (event: FormEvent) => {
    event.preventDefault();
    if (busy) return;
    setBusy(true);
    setMessage(undefined);
    const result = await pairWithCode(
      device,
      { serverUrl, code },
      { fetch: (url, init) => window.fetch(url, init), now: () => Date.now() },
    );
    setBusy(false);
    if (result.ok) onPaired(result.settings);
    else setMessage(result.message);
  };

  const inTheClear = sendsInTheClear(serverUrl);
  return (
    <form className="setup-pair" onSubmit={pair} noValidate autoComplete="off" aria-label="Pair with a code">
      <div className="field">
        <label htmlFor="setup-server">Server address</label>
        <input
          id="setup-server"
          type="url"
          inputMode="url"
          spellCheck={false}
          value={serverUrl}
          placeholder="https://gatehouse.example.com"
          aria-describedby={inTheClear ? 'setup-server-clear' : undefined}
          onChange={(event) => onServerUrl(event.target.value)}
        />
        {inTheClear ? (
          <p id="setup-server-clear" className="field-hint field-warning">
            This address is not encrypted (http): the kiosk token and visitors' names would cross the network readable
            by anyone on it. Use https, unless the server is on a network you trust.
          </p>
        ) : null}
      </div>
      <div className="field">
        <label htmlFor="setup-code">Pairing code</label>
        <input
          id="setup-code"
          type="text"
          spellCheck={false}
          autoCapitalize="characters"
          value={code}
          placeholder="ABCD 2345"
          aria-describedby="setup-code-hint"
          onChange={(event) => typed(event.target.value)}
        />
        <p id="setup-code-hint" className="field-hint">
          Shown in the console under Kiosks, or scan its QR code.
        </p>
      </div>
      {message ? (
        <p className="form-error" role="alert">
          {message}
        </p>
      ) : null}
      <div className="form-actions">
        <button type="submit" className="button button-primary button-wide" disabled={busy}>
          {busy ? 'Pairing…' : 'Pair'}
        </button>
      </div>
    </form>
  );
}
